// The live line under each ACTIVE booking: units busy per minute over the last hour (the ledger's utilization,
// forwarded by booking-service) as a small SVG sparkline, with the latest minute in words beside it.
import { fmt } from './api.js';
import { readUsage } from './usage-source.js';

const MINUTES = 60;
const REFRESH_MS = 30 * 1000;
const SVG = 'http://www.w3.org/2000/svg';
let timer = null;
// The last read per booking id: {at, answer} where answer is a promise of {u} or {error}. Every redraw of "My
// bookings" draws fresh lines, and reading each again on every action would spend the tenant's rate limit.
const reads = new Map();

/** A placeholder for the booking's line; filled from the last read (read now if none is recent), and every 30 s. */
export function utilizationLine(b) {
  const line = document.createElement('div');
  line.className = 'util';
  line.dataset.booking = b.id;
  line.dataset.quantity = b.quantity;
  const text = document.createElement('span');
  text.className = 'util-text';
  text.textContent = 'utilization: loading…';
  line.appendChild(text);
  fill(line, false);
  if (!timer) {
    timer = setInterval(refreshAll, REFRESH_MS);
  }
  return line;
}

function refreshAll() {
  const lines = [...document.querySelectorAll('#bookings .util')];
  const shown = new Set(lines.map((l) => l.dataset.booking));
  for (const id of reads.keys()) {
    if (!shown.has(id)) {
      reads.delete(id);
    }
  }
  lines.forEach((line) => fill(line, true));
}

/**
 * The booking's read: the one under way if any; the last one if it is younger than the refresh period and this is not
 * the refresh itself; else a new read (which, while usage is not configured, answers so without asking: usage-source).
 */
function read(id, refresh) {
  const now = Date.now();
  const last = reads.get(id);
  if (last && (last.pending || (!refresh && now - last.at < REFRESH_MS))) {
    return last.answer;
  }
  const entry = { at: now, pending: true };
  const path = '/api/v1/usage/bookings/' + encodeURIComponent(id) + '/utilization?minutes=' + MINUTES;
  entry.answer = readUsage(path)
    .then((r) => ({ u: r.data }), (error) => ({ error }))
    .finally(() => { entry.pending = false; });
  reads.set(id, entry);
  return entry.answer;
}

async function fill(line, refresh) {
  const text = line.querySelector('.util-text');
  const { u, error } = await read(line.dataset.booking, refresh);
  if (error) {
    text.textContent = 'utilization unavailable: ' + error.message;
    return;
  }
  draw(line, u);
  const last = u.points[u.points.length - 1];
  text.textContent = last
    ? round(last.busy) + ' of ' + u.quantity + ' ' + u.unit + ' busy (minute of ' + fmt(last.minute) + ')'
    : 'no GPU samples in the last hour';
  line.dataset.busy = last ? last.busy : '';
}

const round = (v) => String(Math.round(v * 10) / 10);

function draw(line, u) {
  const old = line.querySelector('svg');
  if (old) {
    old.remove();
  }
  const W = 120;
  const H = 24;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
  svg.setAttribute('width', W);
  svg.setAttribute('height', H);
  svg.setAttribute('aria-hidden', 'true');
  const end = u.asOf ? Date.parse(u.asOf) : Date.now();
  const start = end - MINUTES * 60 * 1000;
  const max = Math.max(1, u.quantity);
  const points = u.points.map((p) => {
    const x = Math.max(0, (Date.parse(p.minute) - start) / (end - start)) * W;
    return x.toFixed(1) + ',' + (H - 1 - (p.busy / max) * (H - 2)).toFixed(1);
  });
  const base = document.createElementNS(SVG, 'line');
  Object.entries({ x1: 0, x2: W, y1: H - 1, y2: H - 1, stroke: '#c3c8d4' })
    .forEach(([k, v]) => base.setAttribute(k, v));
  svg.appendChild(base);
  const poly = document.createElementNS(SVG, 'polyline');
  poly.setAttribute('points', points.join(' '));
  poly.setAttribute('fill', 'none');
  poly.setAttribute('stroke', '#2e8b57');
  poly.setAttribute('stroke-width', '1.5');
  svg.appendChild(poly);
  line.insertBefore(svg, line.firstChild);
}
