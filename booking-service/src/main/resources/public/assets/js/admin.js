// Admin view: every tenant's hold on every pool right now, reserved vs free, from the bookings an admin may list;
// and the bookings with the most idle GPU-hours over the last 7 days, from the ledger.
import { $, api, isAdmin, state } from './api.js';
import { hours, lastDays } from './usage.js';

const TOP_IDLE = 10;

const MAX_PAGES = 10; // 5,000 active bookings: far beyond a fleet's pools

async function activeBookings() {
  const all = [];
  let cursor = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const q = '?state=ACTIVE&limit=500' + (cursor ? '&cursor=' + encodeURIComponent(cursor) : '');
    const res = (await api('GET', '/api/v1/bookings' + q)).data;
    all.push(...res.items);
    cursor = res.nextCursor;
    if (!cursor) {
      break;
    }
  }
  return all;
}

export async function loadAdmin() {
  $('admin').hidden = !isAdmin();
  if (!isAdmin()) {
    return;
  }
  await Promise.all([loadCapacity(), loadMostIdle()]);
}

async function loadCapacity() {
  const now = Date.now();
  const holding = (await activeBookings())
    .filter((b) => new Date(b.start).getTime() <= now && now < new Date(b.end).getTime());
  const body = $('capacity').tBodies[0];
  body.innerHTML = '';
  for (const pool of state.pools) {
    const byTenant = new Map();
    for (const b of holding.filter((x) => x.pool === pool.id)) {
      byTenant.set(b.tenant, (byTenant.get(b.tenant) || 0) + b.quantity);
    }
    const reserved = [...byTenant.values()].reduce((a, b) => a + b, 0);
    const row = body.insertRow();
    row.dataset.pool = pool.id;
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = pool.id;
    row.appendChild(th);
    const tenants = [...byTenant.entries()].sort((a, b) => b[1] - a[1]).map(([t, q]) => t + ' ' + q).join(', ');
    for (const [cls, v] of [['capacity', pool.capacity], ['reserved', reserved],
      ['free', Math.max(0, pool.capacity - reserved)], ['tenants', tenants || '—']]) {
      const cell = row.insertCell();
      cell.className = cls;
      cell.textContent = v;
    }
    const bar = row.insertCell();
    const meter = document.createElement('meter');
    meter.min = 0;
    meter.max = pool.capacity;
    meter.value = reserved;
    meter.setAttribute('aria-label', pool.id + ': ' + reserved + ' of ' + pool.capacity + ' reserved now');
    bar.appendChild(meter);
  }
}

/** The 10 bookings with the most idle GPU-hours over the last 7 UTC days (groupBy=booking: all tenants). */
async function loadMostIdle() {
  const body = $('most-idle').tBodies[0];
  const range = lastDays(7);
  let rows;
  try {
    rows = (await api('GET', '/api/v1/usage?from=' + range.from + '&to=' + range.to + '&groupBy=booking')).data.rows;
    $('most-idle-status').textContent = '';
  } catch (e) {
    rows = [];
    $('most-idle-status').textContent = 'Usage unavailable: ' + e.message;
  }
  body.innerHTML = '';
  const top = rows.filter((r) => r.idle > 0).sort((a, b) => b.idle - a.idle).slice(0, TOP_IDLE);
  for (const r of top) {
    const row = body.insertRow();
    row.dataset.booking = r.bookingId;
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = r.tenant;
    row.appendChild(th);
    for (const [cls, v] of [['pool', r.pool], ['booked', hours(r.booked)], ['busy', hours(r.busy)],
      ['idle', hours(r.idle)]]) {
      const cell = row.insertCell();
      cell.className = cls;
      cell.textContent = v;
    }
  }
  if (!top.length && !$('most-idle-status').textContent) {
    $('most-idle-status').textContent = 'No booking had idle GPU-hours in the last 7 days.';
  }
}
