// Admin view: every tenant's hold on every pool right now, reserved vs free, from the bookings an admin may list;
// and the bookings with the most idle GPU-hours over the last 7 days, from the ledger. A flexible pool's units are of
// many sizes, so its row names them by profile and counts free whole GPUs from the availability API instead.
import { $, api, isAdmin, MINUTE, state } from './api.js';
import { isFlexible, unitName } from './fleet.js';
import { hours, lastDays } from './usage.js';
import { readUsage } from './usage-source.js';

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
  const flexibleFree = new Map(await Promise.all(state.pools.filter((p) => isFlexible(p.id))
    .map(async (p) => [p.id, await wholeGpusFreeNow(p.id, now)])));
  const body = $('capacity').tBodies[0];
  body.innerHTML = '';
  for (const pool of state.pools) {
    if (flexibleFree.has(pool.id)) {
      flexibleRow(body, pool, holding.filter((x) => x.pool === pool.id), flexibleFree.get(pool.id));
      continue;
    }
    const byTenant = new Map();
    for (const b of holding.filter((x) => x.pool === pool.id)) {
      byTenant.set(b.tenant, (byTenant.get(b.tenant) || 0) + b.quantity);
    }
    const reserved = [...byTenant.values()].reduce((a, b) => a + b, 0);
    const row = poolRow(body, pool);
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

/** Whole GPUs of a flexible pool with nothing placed on them over the coming minute. */
async function wholeGpusFreeNow(poolId, now) {
  const from = new Date(Math.floor(now / MINUTE) * MINUTE);
  const q = '?from=' + from.toISOString() + '&to=' + new Date(from.getTime() + MINUTE).toISOString() + '&step=PT1M';
  const report = (await api('GET', '/api/v1/pools/' + encodeURIComponent(poolId) + '/availability' + q)).data;
  return report.slots[0].free;
}

/** "2 × 3g.71gb, 1 × whole GPU": units held, by what a unit is. */
function unitsByProfile(bookings) {
  const byProfile = new Map();
  for (const b of bookings) {
    const name = unitName(b.resource);
    byProfile.set(name, (byProfile.get(name) || 0) + b.quantity);
  }
  return [...byProfile.entries()].map(([p, n]) => n + ' × ' + p).join(', ');
}

/** A new row of the table for `pool`, headed by its id. */
function poolRow(body, pool) {
  const row = body.insertRow();
  row.dataset.pool = pool.id;
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = pool.id;
  row.appendChild(th);
  return row;
}

/** A flexible pool: its GPUs, the units held by profile, the whole GPUs free, and GPUs holding bookings. */
function flexibleRow(body, pool, holding, free) {
  const row = poolRow(body, pool);
  const tenants = [...new Set(holding.map((b) => b.tenant))].sort()
    .map((t) => t + ' ' + unitsByProfile(holding.filter((b) => b.tenant === t))).join('; ');
  for (const [cls, v] of [['capacity', pool.capacity + ' GPUs'], ['reserved', unitsByProfile(holding) || '0'],
    ['free', free + ' whole GPU' + (free === 1 ? '' : 's')], ['tenants', tenants || '—']]) {
    const cell = row.insertCell();
    cell.className = cls;
    cell.textContent = v;
  }
  const meter = document.createElement('meter');
  meter.min = 0;
  meter.max = pool.capacity;
  meter.value = pool.capacity - free;
  meter.setAttribute('aria-label', pool.id + ': ' + (pool.capacity - free) + ' of ' + pool.capacity
    + ' GPUs hold bookings now');
  row.insertCell().appendChild(meter);
}

/** The 10 bookings with the most idle GPU-hours over the last 7 UTC days (groupBy=booking: all tenants). */
async function loadMostIdle() {
  const body = $('most-idle').tBodies[0];
  const range = lastDays(7);
  let rows;
  try {
    rows = (await readUsage('/api/v1/usage?from=' + range.from + '&to=' + range.to + '&groupBy=booking')).data.rows;
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
