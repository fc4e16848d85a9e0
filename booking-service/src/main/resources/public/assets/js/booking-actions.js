// Books what the overview asked for, and when it does not fit offers the earliest start that does as a button.
import { $, api, claims, fmt, MINUTE, refreshViews, say } from './api.js';

const ISO_MINUTES = { PT30M: 30, PT1H: 60, PT2H: 120, PT4H: 240, PT8H: 480, P1D: 1440 };

/**
 * ask: {pool, quantity, start, end} for a window, or {pool, quantity, duration} for book now. A window whose first
 * hour has begun is booked from now until its end (a start may not lie in the past).
 */
export async function bookWindow(ask) {
  clearOffer();
  const body = { pool: ask.pool, quantity: ask.quantity, namespace: (claims().namespaces || [])[0] };
  if (ask.duration) {
    body.duration = ask.duration;
  } else {
    if (ask.start.getTime() > Date.now()) {
      body.start = ask.start.toISOString();
    }
    body.end = ask.end.toISOString();
  }
  const res = await api('POST', '/api/v1/bookings', body);
  // Refresh first, so the message never shows beside views that do not have the booking yet.
  await refreshViews();
  say(res.status === 202 && res.data && res.data.state === 'PENDING_APPROVAL'
    ? 'Requested ' + res.data.quantity + ' × ' + res.data.pool + ' from ' + fmt(res.data.start)
      + ': over the pool\'s approval threshold, so it waits for an admin (its units are held meanwhile)'
    : res.status === 202 ? 'Booking accepted; the decision is still pending.'
    : 'Booked ' + res.data.quantity + ' × ' + res.data.pool + ' from ' + fmt(res.data.start) + ' to '
      + fmt(res.data.end));
  return res;
}

/** The length asked for, in minutes: the duration of a book now, or the window's. */
function minutes(ask) {
  return ask.duration ? ISO_MINUTES[ask.duration] : Math.round((ask.end - Math.max(ask.start, Date.now())) / MINUTE);
}

/** After a refusal: a button booking the same length at the earliest start that fits, if the refusal was capacity. */
export async function offerEarliest(ask, error) {
  const p = error.problem || {};
  if (error.status !== 409 || (p.rule && p.rule !== 'CAPACITY' && !p.earliestStart)) {
    throw error;
  }
  const length = Math.ceil(minutes(ask) / 15) * 15;
  let earliest = p.earliestStart;
  if (!earliest) {
    const q = '?quantity=' + ask.quantity + '&duration=PT' + length + 'M&step=PT1H';
    const report = (await api('GET', '/api/v1/pools/' + encodeURIComponent(ask.pool) + '/availability' + q)).data;
    earliest = report.firstFit && report.firstFit.start;
  }
  if (!earliest) {
    throw new Error(error.message + ' — and no later start fits within the booking horizon');
  }
  const start = new Date(earliest);
  const end = new Date(start.getTime() + length * MINUTE);
  say(ask.quantity + ' × ' + ask.pool + ' does not fit then; the earliest start that fits is ' + fmt(earliest), true);
  const offer = $('earliest');
  const b = document.createElement('button');
  b.type = 'button';
  b.id = 'book-earliest';
  b.textContent = 'Book ' + ask.quantity + ' × ' + ask.pool + ' from ' + fmt(earliest) + ' to ' + fmt(end);
  b.addEventListener('click', () => bookWindow({ pool: ask.pool, quantity: ask.quantity, start, end })
    .catch((e) => say(e.message, true)));
  offer.appendChild(b);
  offer.hidden = false;
  b.focus();
}

function clearOffer() {
  $('earliest').innerHTML = '';
  $('earliest').hidden = true;
}
