// Admin view: every tenant's hold on every pool right now, reserved vs free, from the bookings an admin may list.
import { $, api, isAdmin, state } from './api.js';

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
