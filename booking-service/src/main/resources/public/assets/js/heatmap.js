// Availability at a glance: every pool (full GPUs and each MIG profile) over the coming days, free units per hour
// as a table (numbers, not colour alone). Drag, or Shift+arrows, to pick a window on one pool; book it or book now.
// A flexible pool's row counts whole GPUs (what booking it here books); its profiles are in "Flexible pool by MIG
// profile".
import { $, api, HOUR, isAdmin, pad, say, state } from './api.js';
import { offerEarliest, bookWindow } from './booking-actions.js';
import { openDialog } from './calendar.js';
import { isFlexible } from './fleet.js';

const sel = { row: -1, anchor: -1, a: -1, b: -1 };
let dragging = false;

export async function loadHeatmap() {
  const days = Number($('hm-days').value);
  const from = new Date(Math.floor(Date.now() / HOUR) * HOUR);
  const to = new Date(from.getTime() + days * 24 * HOUR);
  const q = '?from=' + from.toISOString() + '&to=' + to.toISOString() + '&step=PT1H';
  const reports = await Promise.all(state.pools.map((p) =>
    api('GET', '/api/v1/pools/' + encodeURIComponent(p.id) + '/availability' + q).then((r) => r.data)));
  render(reports, from, days * 24);
  $('hm-flex-note').hidden = !reports.some((r) => isFlexible(r.pool));
}

function render(reports, from, hours) {
  const table = $('heatmap');
  table.innerHTML = '';
  table.createCaption().textContent = 'Free units per hour of every pool, from ' + from.toLocaleString([],
    { weekday: 'short', hour: '2-digit', minute: '2-digit' }) + ' (your local time)';
  const head = table.createTHead();
  const days = head.insertRow();
  const hoursRow = head.insertRow();
  const corner = document.createElement('th');
  corner.rowSpan = 2;
  corner.scope = 'col';
  corner.textContent = 'Pool';
  days.appendChild(corner);
  for (let i = 0; i < hours; i++) {
    const t = new Date(from.getTime() + i * HOUR);
    if (i === 0 || t.getHours() === 0) {
      const th = document.createElement('th');
      th.scope = 'colgroup';
      th.colSpan = Math.min(24 - t.getHours(), hours - i);
      th.textContent = t.toLocaleDateString([], { weekday: 'short', month: 'short', day: 'numeric' });
      days.appendChild(th);
    }
    const h = document.createElement('th');
    h.scope = 'col';
    h.textContent = pad(t.getHours());
    hoursRow.appendChild(h);
  }
  const body = table.createTBody();
  reports.forEach((report, r) => {
    const row = body.insertRow();
    row.dataset.pool = report.pool;
    const flexible = isFlexible(report.pool);
    const units = flexible ? ' whole GPUs' : '';
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = report.pool + (flexible ? ' (whole GPUs)' : '');
    th.title = flexible ? report.capacity + ' GPUs laid out by gpuaas: a GPU counts free while no booking holds any'
      + ' of it; MIG profiles under "Flexible pool by MIG profile"' : report.capacity + ' units';
    row.appendChild(th);
    report.slots.forEach((slot, i) => {
      const cell = row.insertCell();
      const start = new Date(slot.start);
      cell.textContent = slot.free;
      cell.dataset.start = slot.start;
      cell.dataset.end = slot.end;
      cell.dataset.free = slot.free;
      cell.dataset.col = i;
      cell.dataset.row = r;
      cell.tabIndex = -1;
      const ratio = slot.free / report.capacity;
      cell.className = slot.free === 0 ? 'l0' : ratio < 0.34 ? 'l1' : ratio < 1 ? 'l2' : 'l3';
      cell.setAttribute('aria-label', report.pool + ': ' + slot.free + ' of ' + report.capacity + units + ' free, '
        + start.toLocaleString([], { weekday: 'short', hour: '2-digit', minute: '2-digit' }));
    });
  });
  const keep = sel.row >= 0 && sel.row < reports.length ? cellAt(sel.row, sel.b) : null;
  (keep || cellAt(0, 0) || document.createElement('td')).tabIndex = 0;
  paint();
}

const cellAt = (row, col) => $('heatmap').querySelector('td[data-row="' + row + '"][data-col="' + col + '"]');

function select(row, anchor, col) {
  sel.row = row;
  sel.anchor = anchor;
  sel.a = Math.min(anchor, col);
  sel.b = Math.max(anchor, col);
  paint();
}

function paint() {
  for (const td of $('heatmap').querySelectorAll('td')) {
    const on = Number(td.dataset.row) === sel.row && td.dataset.col >= sel.a && td.dataset.col <= sel.b;
    td.classList.toggle('sel', on);
    td.setAttribute('aria-selected', on ? 'true' : 'false');
  }
  const chosen = selection();
  $('book-window').disabled = !chosen;
  if (!chosen) {
    $('selection').textContent = 'No window picked: drag across a pool\'s hours, or focus a cell and use Shift+arrows.';
    return;
  }
  $('selection').textContent = chosen.pool + ': ' + chosen.start.toLocaleString([], { weekday: 'short',
    hour: '2-digit', minute: '2-digit' }) + ' – ' + chosen.end.toLocaleTimeString([], { hour: '2-digit',
    minute: '2-digit' }) + ' (' + Math.round((chosen.end - chosen.start) / HOUR) + ' h), at least '
    + chosen.minFree + ' free';
}

/** The picked window: pool, start, end and the fewest free units in it; null when none. */
export function selection() {
  const first = sel.row >= 0 ? cellAt(sel.row, sel.a) : null;
  const last = sel.row >= 0 ? cellAt(sel.row, sel.b) : null;
  if (!first || !last) {
    return null;
  }
  let minFree = Infinity;
  for (let c = sel.a; c <= sel.b; c++) {
    minFree = Math.min(minFree, Number(cellAt(sel.row, c).dataset.free));
  }
  return { pool: first.parentElement.dataset.pool, start: new Date(first.dataset.start),
    end: new Date(last.dataset.end), minFree };
}

function moveFocus(from, row, col) {
  const next = cellAt(row, col);
  if (!next) {
    return null;
  }
  from.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
  return next;
}

function onKey(e) {
  const td = e.target.closest('td');
  if (!td) {
    return;
  }
  const row = Number(td.dataset.row);
  const col = Number(td.dataset.col);
  const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    select(row, col, col);
  } else if (moves[e.key]) {
    e.preventDefault();
    const [dr, dc] = moves[e.key];
    const extend = e.shiftKey && dr === 0 && sel.row === row;
    const next = moveFocus(td, row + (e.shiftKey ? 0 : dr), col + dc);
    if (next && (extend || e.shiftKey)) {
      select(row, extend ? sel.anchor : col, col + dc);
    }
  }
}

function bookingAsked(now) {
  const chosen = selection();
  const pool = chosen ? chosen.pool : state.pools[0] && state.pools[0].id;
  const quantity = Number($('hm-quantity').value);
  if (isAdmin()) { // an admin names the tenant and namespace: the dialog asks for them
    openDialog(now ? { now: true, pool, quantity } : { start: chosen.start, end: chosen.end, pool, quantity });
    return;
  }
  const ask = now ? { pool, quantity, duration: $('hm-duration').value }
    : { pool, quantity, start: chosen.start, end: chosen.end };
  bookWindow(ask).catch((e) => offerEarliest(ask, e).catch((err) => say(err.message, true)));
}

export function initHeatmap() {
  const table = $('heatmap');
  table.addEventListener('keydown', onKey);
  table.addEventListener('mousedown', (e) => {
    const td = e.target.closest('td');
    if (td) {
      e.preventDefault();
      dragging = true;
      moveFocus(table.querySelector('td[tabindex="0"]') || td, Number(td.dataset.row), Number(td.dataset.col));
      select(Number(td.dataset.row), Number(td.dataset.col), Number(td.dataset.col));
    }
  });
  table.addEventListener('mouseover', (e) => {
    const td = e.target.closest('td');
    if (dragging && td && Number(td.dataset.row) === sel.row) {
      select(sel.row, sel.anchor, Number(td.dataset.col));
    }
  });
  document.addEventListener('mouseup', () => { dragging = false; });
  $('hm-days').addEventListener('change', () => loadHeatmap().catch((e) => say(e.message, true)));
  $('book-window').addEventListener('click', () => bookingAsked(false));
  $('hm-book-now').addEventListener('click', () => bookingAsked(true));
  state.refreshers.push(loadHeatmap);
  paint();
}
