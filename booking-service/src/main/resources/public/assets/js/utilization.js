// The live line under each ACTIVE booking: units busy per minute over the last hour (the ledger's utilization,
// forwarded by booking-service) as a small SVG sparkline, with the latest minute in words beside it.
import { api, fmt } from './api.js';

const MINUTES = 60;
const REFRESH_MS = 30 * 1000;
const SVG = 'http://www.w3.org/2000/svg';
let timer = null;

/** A placeholder for the booking's line; filled now and on every refresh while it is in the page. */
export function utilizationLine(b) {
  const line = document.createElement('div');
  line.className = 'util';
  line.dataset.booking = b.id;
  line.dataset.quantity = b.quantity;
  const text = document.createElement('span');
  text.className = 'util-text';
  text.textContent = 'utilization: loading…';
  line.appendChild(text);
  fill(line);
  if (!timer) {
    timer = setInterval(refreshAll, REFRESH_MS);
  }
  return line;
}

function refreshAll() {
  document.querySelectorAll('#bookings .util').forEach(fill);
}

async function fill(line) {
  const text = line.querySelector('.util-text');
  try {
    const path = '/api/v1/usage/bookings/' + encodeURIComponent(line.dataset.booking) + '/utilization?minutes='
      + MINUTES;
    const u = (await api('GET', path)).data;
    draw(line, u);
    const last = u.points[u.points.length - 1];
    text.textContent = last
      ? round(last.busy) + ' of ' + u.quantity + ' ' + u.unit + ' busy (minute of ' + fmt(last.minute) + ')'
      : 'no GPU samples in the last hour';
    line.dataset.busy = last ? last.busy : '';
  } catch (e) {
    text.textContent = 'utilization unavailable: ' + e.message;
  }
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
