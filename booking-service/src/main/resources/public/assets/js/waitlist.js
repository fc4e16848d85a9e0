// The waitlist: the booking dialog's "If it does not fit, wait for it until …" (a create with waitlist.latestStart,
// answered 202 with the entry), and under "My bookings" the caller's entries: the waiting ones with Cancel, and what
// became of the ended ones (booked, with a link to the booking; cancelled; expired).
import { $, api, button, fmt, MINUTE, refreshViews, say, span } from './api.js';

/** Ended entries shown beside the waiting ones: the latest few, so the list stays short. */
const ENDED_SHOWN = 10;

/** Clears the dialog's waitlist field (it is offered for a window and for book now alike). */
export function resetWaitlist() {
  $('dlg-wait-until').value = '';
}

/** {latestStart} when the dialog asks to wait, else undefined (the request is refused when it does not fit). */
export function waitlistAsk() {
  const until = $('dlg-wait-until').value;
  return until ? { latestStart: new Date(until).toISOString() } : undefined;
}

/** The words for a create's answer that put it on the waitlist, or null when the answer is not a waitlist entry. */
export function waitingWords(res) {
  const e = res.data;
  if (res.status !== 202 || !e || e.state !== 'WAITING' || !e.latestStart) {
    return null;
  }
  return 'Does not fit now: ' + e.quantity + ' × ' + e.pool + ' waits for room, starting between '
    + fmt(e.earliestStart) + ' and ' + fmt(e.latestStart) + '; it is booked as soon as it fits';
}

/** The entry's length for people: the API writes it as seconds (the event contract as ISO 8601, also read). */
function lengthWords(length) {
  if (typeof length === 'number') {
    return span(length * 1000);
  }
  const m = /^PT(?:(\d+)H)?(?:(\d+)M)?$/.exec(length || '');
  return m && (m[1] || m[2]) ? span((Number(m[1] || 0) * 60 + Number(m[2] || 0)) * MINUTE) : String(length || '');
}

export async function loadWaitlist() {
  const entries = (await api('GET', '/api/v1/waitlist?state=ALL')).data.entries;
  const waiting = entries.filter((e) => e.state === 'WAITING');
  const ended = entries.filter((e) => e.state !== 'WAITING')
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
    .slice(0, ENDED_SHOWN);
  const body = $('waitlist').tBodies[0];
  body.innerHTML = '';
  $('waitlist-status').textContent = waiting.length ? waiting.length + ' waiting for room'
    : 'Nothing waiting for room.';
  for (const e of [...waiting, ...ended]) {
    renderEntry(body, e);
  }
}

function renderEntry(body, e) {
  const row = body.insertRow();
  row.dataset.id = e.id;
  row.dataset.state = e.state;
  for (const v of [e.pool, e.quantity, fmt(e.earliestStart), fmt(e.latestStart), lengthWords(e.length)]) {
    row.insertCell().textContent = v;
  }
  const outcome = row.insertCell();
  outcome.className = 'status';
  const actions = row.insertCell();
  const what = e.quantity + ' × ' + e.pool + ' waiting since ' + fmt(e.createdAt);
  switch (e.state) {
    case 'WAITING':
      outcome.textContent = 'waiting since ' + fmt(e.createdAt);
      actions.appendChild(button('Cancel', 'cancel-wait', () => cancel(e, what), 'Stop waiting: ' + what));
      break;
    case 'BOOKED': {
      outcome.textContent = 'booked ' + fmt(e.updatedAt) + ' · ';
      const link = document.createElement('a');
      link.href = '#booking-' + e.id;
      link.className = 'booked-link';
      link.textContent = 'see the booking';
      outcome.appendChild(link);
      break;
    }
    case 'EXPIRED':
      outcome.textContent = 'expired: no room by ' + fmt(e.latestStart);
      break;
    default:
      outcome.textContent = e.state.toLowerCase() + ' ' + fmt(e.updatedAt);
  }
}

async function cancel(e, what) {
  try {
    const res = await api('DELETE', '/api/v1/waitlist/' + encodeURIComponent(e.id));
    await refreshViews(); // first, so the message never shows beside a list that still has the entry waiting
    // An entry booked since the list was drawn is a booking: the API cancels that booking (its answer has no
    // latestStart), and the page says so rather than "stopped waiting".
    say(res.status === 202 ? 'Accepted; the decision is still pending.'
      : res.data && !res.data.latestStart ? 'It had been booked meanwhile: cancelled the booking of ' + e.quantity
        + ' × ' + e.pool + ' from ' + fmt(res.data.start)
      : 'Stopped waiting: ' + e.quantity + ' × ' + e.pool + ' is off the waitlist');
  } catch (err) {
    say(err.message + ' (' + what + ')', true);
  }
}
