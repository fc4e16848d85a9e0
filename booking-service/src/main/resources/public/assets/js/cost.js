// Cost this month: per tenant the current UTC month's booked, used and idle GPU-hours, their cost at the pool
// catalog's prices and the tenant's share of the fleet's used GPU-hours, from metrics-gateway's fair-share report
// (forwarded by booking-service; a tenant sees its own row, an admin every tenant's). Beside them the month's
// budget (joined in by booking-service from gpuaas.budgets): limit, booked, held, booked as a percent of the limit and
// the tenant's share of the month's budgets; an admin sets a tenant's budget with the form below the table.
import { $, api, isAdmin, say, state } from './api.js';
import { readUsage } from './usage-source.js';

const money = (v) => v.toFixed(2);
const hours = (v) => v.toFixed(2);
const percent = (v) => (v === undefined || v === null ? '–' : (v * 100).toFixed(1) + ' %');

/** The current UTC month, yyyy-mm. */
export const thisMonth = () => new Date().toISOString().slice(0, 7);

export async function loadMonthCost() {
  const month = thisMonth();
  const body = $('month-cost-table').tBodies[0];
  $('budget-form').hidden = !isAdmin();
  try {
    const report = (await readUsage('/api/v1/usage/fair-share?month=' + month)).data;
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
        ['used-share', percent(r.usedShare)], ...budgetCells(r.budget, r.budgetShare)];
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

/** The budget's cells: limit (with its unit), booked, held, booked as a percent of the limit, share of budgets. */
function budgetCells(b, share) {
  if (!b) {
    return [['budget', '–'], ['budget-booked', '–'], ['budget-held', '–'], ['budget-percent', '–'],
      ['budget-share', '–']];
  }
  const unit = b.unit === 'COST' ? ' ' + (b.currency || '') : ' GPU-h';
  return [['budget', money(b.limit) + unit], ['budget-booked', money(b.booked)], ['budget-held', money(b.held)],
    ['budget-percent', b.limit > 0 ? percent(b.booked / b.limit) : '–'], ['budget-share', percent(share)]];
}

/** PUT the budget, then wait (briefly) until the budget stage applied it and redraw the table. */
async function setBudget(event) {
  event.preventDefault();
  const month = thisMonth();
  const tenant = $('budget-tenant').value.trim();
  const limit = Number($('budget-limit').value);
  const unit = $('budget-unit').value;
  try {
    await api('PUT', '/api/v1/budgets/' + encodeURIComponent(tenant) + '/' + month, { unit, limit });
  } catch (e) {
    say('Budget not set: ' + e.message, true);
    return;
  }
  say('Budget of ' + tenant + ' for ' + month + ' sent; applying…');
  // The month's list (an admin's: every tenant's) answers 200 whether or not the budget is there yet.
  for (let i = 0; i < 20; i++) {
    try {
      const list = (await api('GET', '/api/v1/budgets?month=' + month)).data.budgets;
      const b = list.find((x) => x.tenant === tenant);
      if (b && b.unit === unit && Number(b.limit) === limit) {
        say('Budget of ' + tenant + ' for ' + month + ' set: ' + money(limit)
          + (unit === 'COST' ? ' ' + (b.currency || '') : ' GPU-h'));
        await loadMonthCost();
        return;
      }
    } catch (e) {
      say('Budget sent, not read back: ' + e.message, true);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  say('Budget of ' + tenant + ' sent; it shows once the budget stage applied it');
  await loadMonthCost();
}

export function initMonthCost() {
  $('budget-form').addEventListener('submit', setBudget);
  state.refreshers.push(loadMonthCost);
}
