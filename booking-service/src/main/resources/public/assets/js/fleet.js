// Flexible pools, whose GPUs gpuaas lays out itself: how many units of each MIG profile (and whole GPUs) fit per
// hour, for everyone; and for admins, what each GPU runs at every change over the coming days.
import { $, api, fmt, HOUR, isAdmin, pad, state } from './api.js';

const WHOLE = 'whole GPU';

/** The pools gpuaas lays out itself, as GET /api/v1/pools lists them. */
export const flexiblePools = () => state.pools.filter((p) => p.kind === 'flexible');

export const isFlexible = (poolId) => flexiblePools().some((p) => p.id === poolId);

/** What a unit of a flexible pool's booking is, from its resource: its MIG profile, or a whole GPU. */
export const unitName = (resource) => resource.startsWith('nvidia.com/mig-')
  ? resource.substring('nvidia.com/mig-'.length) : WHOLE;

const profiles = new Map(); // pool id → its bookable profiles, from the first availability answer

/** The profiles a booking of the pool may name (whole GPUs not among them), read once per pool. */
export async function profilesOf(poolId) {
  if (!profiles.has(poolId)) {
    const from = new Date(Math.floor(Date.now() / HOUR) * HOUR);
    await availability(poolId, from, new Date(from.getTime() + HOUR));
  }
  return profiles.get(poolId) || [];
}

async function availability(poolId, from, to) {
  const q = '?from=' + from.toISOString() + '&to=' + to.toISOString() + '&step=PT1H';
  const report = (await api('GET', '/api/v1/pools/' + encodeURIComponent(poolId) + '/profile-availability' + q)).data;
  profiles.set(poolId, report.rows.filter((r) => r.profile).map((r) => r.profile));
  return report;
}

function fillPools() {
  const select = $('fleet-pool');
  const current = select.value;
  select.innerHTML = '';
  for (const p of flexiblePools()) {
    const o = document.createElement('option');
    o.value = p.id;
    o.textContent = p.id + ' (' + p.capacity + ' × ' + p.gpuModel + ')';
    select.appendChild(o);
  }
  if (current && isFlexible(current)) {
    select.value = current;
  }
}

export async function loadFleet() {
  const any = flexiblePools().length > 0;
  $('fleet').hidden = !any;
  $('fleet-admin').hidden = !any || !isAdmin();
  if (!any) {
    return;
  }
  fillPools();
  $('fleet-status').textContent = '';
  const pool = $('fleet-pool').value;
  const days = Number($('fleet-days').value);
  const from = new Date(Math.floor(Date.now() / HOUR) * HOUR);
  const to = new Date(from.getTime() + days * 24 * HOUR);
  const report = await availability(pool, from, to);
  renderAvailability(report);
  if (isAdmin()) {
    const q = '?from=' + from.toISOString() + '&to=' + to.toISOString();
    renderLayouts((await api('GET', '/api/v1/pools/' + encodeURIComponent(pool) + '/layouts' + q)).data);
  }
}

function headerCell(row, text, scope) {
  const th = document.createElement('th');
  th.scope = scope;
  th.textContent = text;
  row.appendChild(th);
  return th;
}

/** Rows = whole GPUs and each profile, columns = hours; a cell is how many more fit for that whole hour. */
function renderAvailability(report) {
  const table = $('fleet-availability');
  table.innerHTML = '';
  table.createCaption().textContent = 'Units that still fit per hour in ' + report.pool + ' (' + report.gpus
    + ' GPUs; your local time). Booking one profile lowers what the others can get on the same GPUs.';
  const head = table.createTHead().insertRow();
  headerCell(head, 'Profile', 'col');
  const slots = report.rows[0].slots;
  for (const s of slots) {
    const t = new Date(s.start);
    headerCell(head, t.getHours() === 0 || s === slots[0] ? fmt(s.start) : pad(t.getHours()), 'col');
  }
  const body = table.createTBody();
  const most = new Map(report.rows.map((r) => [r, Math.max(1, ...r.slots.map((s) => s.fit))]));
  for (const r of report.rows) {
    const row = body.insertRow();
    const name = r.profile || WHOLE;
    row.dataset.profile = name;
    headerCell(row, name, 'row');
    for (const s of r.slots) {
      const cell = row.insertCell();
      cell.textContent = s.fit;
      cell.dataset.start = s.start;
      const share = s.fit / most.get(r);
      cell.className = s.fit === 0 ? 'l0' : share < 0.5 ? 'l1' : share < 1 ? 'l2' : 'l3';
      cell.setAttribute('aria-label', s.fit + ' × ' + name + ' fit from ' + fmt(s.start) + ' to ' + fmt(s.end));
    }
  }
}

function describe(gpu) {
  switch (gpu.mode) {
    case 'whole':
      return 'whole GPU — ' + gpu.bookingId;
    case 'mig':
      return gpu.instances.map((i) => i.profile + '@' + i.start + ' — ' + (i.bookingId || '?')).join('\n');
    default:
      return 'idle';
  }
}

/** Rows = GPUs, columns = the instants where any layout changes; a cell lists what the GPU runs from then. */
function renderLayouts(layouts) {
  const table = $('fleet-layouts');
  table.innerHTML = '';
  table.createCaption().textContent = 'What each GPU of ' + layouts.pool + ' runs from each change on'
    + (layouts.truncated ? ' (the first changes only)' : '');
  const head = table.createTHead().insertRow();
  headerCell(head, 'GPU', 'col');
  for (const c of layouts.changes) {
    headerCell(head, 'from ' + fmt(c.at), 'col').dataset.at = c.at;
  }
  const body = table.createTBody();
  const gpus = layouts.changes.length ? layouts.changes[0].gpus : [];
  gpus.forEach((g, i) => {
    const row = body.insertRow();
    row.dataset.gpu = g.node + '/' + g.gpu;
    headerCell(row, g.node + '/' + g.gpu, 'row');
    for (const c of layouts.changes) {
      const gpu = c.gpus[i];
      const cell = row.insertCell();
      cell.className = 'layout ' + gpu.mode;
      cell.textContent = describe(gpu);
    }
  });
}

export function initFleet() {
  const reload = () => loadFleet().catch((e) => { $('fleet-status').textContent = e.message; });
  $('fleet-pool').addEventListener('change', reload);
  $('fleet-days').addEventListener('change', reload);
  state.refreshers.push(reload);
}
