// Cost this month: per tenant the current UTC month's booked, used and idle GPU-hours, their cost at the pool
// catalog's prices and the tenant's share of the fleet's used GPU-hours, from metrics-gateway's fair-share report
// (forwarded by booking-service; a tenant sees its own row, an admin every tenant's).
import { $, api, state } from './api.js';

const money = (v) => v.toFixed(2);
const hours = (v) => v.toFixed(2);
const percent = (v) => (v === undefined || v === null ? '–' : (v * 100).toFixed(1) + ' %');

/** The current UTC month, yyyy-mm. */
export const thisMonth = () => new Date().toISOString().slice(0, 7);

export async function loadMonthCost() {
  const month = thisMonth();
  const body = $('month-cost-table').tBodies[0];
  try {
    const report = (await api('GET', '/api/v1/usage/fair-share?month=' + month)).data;
    body.innerHTML = '';
    const currency = report.currency || '';
    $('month-cost-caption').textContent = 'Cost of ' + month + (currency ? ' (' + currency + ')' : ' (no prices set)');
    for (const r of report.rows) {
      const row = body.insertRow();
      row.dataset.tenant = r.tenant;
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = r.tenant;
      row.appendChild(th);
      const cells = [['booked', hours(r.booked)], ['used', hours(r.used)], ['idle', hours(r.idle)],
        ['booked-cost', money(r.bookedCost)], ['used-cost', money(r.usedCost)], ['idle-cost', money(r.idleCost)],
        ['used-share', percent(r.usedShare)]];
      for (const [name, text] of cells) {
        const cell = row.insertCell();
        cell.className = name;
        cell.textContent = text;
      }
    }
    $('month-cost-status').textContent = report.rows.length ? '' : 'No use this month yet.';
  } catch (e) {
    body.innerHTML = '';
    $('month-cost-status').textContent = 'Cost unavailable: ' + e.message;
  }
}

export function initMonthCost() {
  state.refreshers.push(loadMonthCost);
}
