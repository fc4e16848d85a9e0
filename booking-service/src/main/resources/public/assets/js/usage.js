// Usage: booked vs admitted vs busy vs idle GPU-hours per UTC day over the last 14 days, from the ledger
// (metrics-gateway, forwarded by booking-service), as an SVG bar chart and the same figures as a table; a CSV
// download of the ledger for the same days.
import { $, say, state } from './api.js';
import { readUsage } from './usage-source.js';

const DAYS = 14;
const DAY = 24 * 3600 * 1000;
export const SERIES = [
  ['booked', 'Booked', '#8796b0'], ['admitted', 'Admitted', '#1f5fd1'],
  ['busy', 'Busy', '#2e8b57'], ['idle', 'Idle', '#d9822b']];
const SVG = 'http://www.w3.org/2000/svg';

const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);
const dayLabel = (day) => new Date(day + 'T00:00:00Z').toLocaleDateString([],
  { month: 'short', day: 'numeric', timeZone: 'UTC' });
export const hours = (v) => v.toFixed(2);

/** [from, to) in UTC days: the last 14 days, today included. */
export function lastDays(n) {
  const today = Math.floor(Date.now() / DAY) * DAY;
  return { from: isoDay(today - (n - 1) * DAY), to: isoDay(today + DAY) };
}

let range = lastDays(DAYS);
let rows = [];

export async function loadUsage() {
  range = lastDays(DAYS);
  fillPools();
  try {
    const q = '?from=' + range.from + '&to=' + range.to + '&groupBy=day';
    rows = (await readUsage('/api/v1/usage' + q)).data.rows;
    $('usage-status').textContent = '';
  } catch (e) {
    rows = [];
    $('usage-status').textContent = 'Usage unavailable: ' + e.message;
  }
  draw();
}

function fillPools() {
  const select = $('usage-pool');
  const chosen = select.value;
  select.innerHTML = '';
  select.add(new Option('All pools', ''));
  for (const p of state.pools) {
    select.add(new Option(p.id, p.id));
  }
  select.value = [...select.options].some((o) => o.value === chosen) ? chosen : '';
}

/** One entry per day of the range, figures summed over the chosen pool (or all) and every tenant shown. */
function perDay() {
  const pool = $('usage-pool').value;
  const days = new Map();
  for (let t = Date.parse(range.from + 'T00:00:00Z'); t < Date.parse(range.to + 'T00:00:00Z'); t += DAY) {
    days.set(isoDay(t), { day: isoDay(t), booked: 0, admitted: 0, busy: 0, idle: 0 });
  }
  for (const r of rows) {
    const d = days.get(r.day);
    if (d && (!pool || r.pool === pool)) {
      for (const [key] of SERIES) {
        d[key] += r[key] || 0;
      }
    }
  }
  return [...days.values()];
}

function draw() {
  const days = perDay();
  drawTable(days);
  drawChart(days);
}

function drawTable(days) {
  const body = $('usage-table').tBodies[0];
  body.innerHTML = '';
  for (const d of days) {
    const row = body.insertRow();
    row.dataset.day = d.day;
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = dayLabel(d.day);
    row.appendChild(th);
    for (const [key] of SERIES) {
      const cell = row.insertCell();
      cell.className = key;
      cell.textContent = hours(d[key]);
    }
  }
}

const el = (name, attrs, text) => {
  const e = document.createElementNS(SVG, name);
  Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, v));
  if (text !== undefined) {
    e.textContent = text;
  }
  return e;
};

/** A bar group per day, one bar per series; the table below carries the same figures for screen readers. */
function drawChart(days) {
  // Drawn at the box's own width, so its labels keep their size on a phone instead of shrinking with the picture.
  const W = Math.max(320, Math.min(960, $('usage-chart').clientWidth || 720));
  const H = 220;
  const left = 44;
  const bottom = 24;
  const top = 8;
  const max = niceMax(Math.max(0, ...days.flatMap((d) => SERIES.map(([k]) => d[k]))));
  const svg = el('svg', { viewBox: '0 0 ' + W + ' ' + H, width: '100%', role: 'img',
    'aria-label': 'Bar chart of the GPU-hours per day in the table below' });
  const y = (v) => top + (H - top - bottom) * (1 - v / max);
  for (let i = 0; i <= 4; i++) {
    const v = max * i / 4;
    svg.appendChild(el('line', { x1: left, x2: W, y1: y(v), y2: y(v), stroke: '#e1e4ec' }));
    svg.appendChild(el('text', { x: left - 4, y: y(v) + 4, 'text-anchor': 'end', 'font-size': 10, fill: '#5a6275' },
      Number(v.toFixed(2))));
  }
  const group = (W - left) / days.length;
  const bar = (group - 6) / SERIES.length;
  days.forEach((d, i) => {
    const x0 = left + i * group + 3;
    SERIES.forEach(([key, label, colour], s) => {
      const rect = el('rect', { x: x0 + s * bar, y: y(d[key]), width: Math.max(1, bar - 1),
        height: Math.max(0, H - bottom - y(d[key])), fill: colour, class: 'bar-' + key });
      rect.appendChild(el('title', {}, dayLabel(d.day) + ' ' + label.toLowerCase() + ': ' + hours(d[key])));
      svg.appendChild(rect);
    });
    if (i % (W < 560 ? 3 : 2) === 0) {
      svg.appendChild(el('text', { x: x0 + group / 2 - 3, y: H - 8, 'text-anchor': 'middle', 'font-size': 10,
        fill: '#5a6275' }, dayLabel(d.day)));
    }
  });
  const chart = $('usage-chart');
  chart.innerHTML = '';
  chart.appendChild(svg);
}

/** 1, 2 or 5 times a power of ten at or above v (at least 1 GPU-hour, so an empty chart still has an axis). */
function niceMax(v) {
  if (v <= 1) {
    return 1;
  }
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  return [1, 2, 5, 10].map((m) => m * p).find((m) => m >= v);
}

/**
 * The ledger's CSV for the same days, fetched with the token and saved through a Blob (no token in a URL). A click
 * always asks, even while usage is known not to be configured (the user asked; it may be configured by now).
 */
async function downloadCsv() {
  try {
    const q = '?from=' + range.from + '&to=' + range.to + '&groupBy=day';
    const csv = (await readUsage('/api/v1/usage' + q, { accept: 'text/csv', ask: true })).data;
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'gpuaas-usage-' + range.from + '-' + range.to + '.csv';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    say('Downloaded the usage CSV of ' + range.from + ' to ' + range.to + ' (UTC days, end exclusive)');
  } catch (e) {
    say(e.message, true);
  }
}

export function initUsage() {
  const legend = $('usage-legend');
  for (const [, label, colour] of SERIES) {
    const item = document.createElement('li');
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = colour;
    item.append(swatch, label);
    legend.appendChild(item);
  }
  $('usage-pool').addEventListener('change', draw);
  $('usage-csv').addEventListener('click', downloadCsv);
  state.refreshers.push(loadUsage);
}
