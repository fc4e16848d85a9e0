// My bookings: state in words with the time left, notices, the workloads under each active booking (pending,
// admitted, reclaimed with the reason, Resume), and extend / end now / cancel.
import { $, api, button, fmt, HOUR, refreshViews, say, span } from './api.js';
import { isFlexible, unitName } from './fleet.js';
import { seriesActions, seriesMark } from './series.js';
import { utilizationLine } from './utilization.js';

/** A MIG layout notice in words: which node, what is wrong, and what it means for the team's workloads. */
function layoutWords(n) {
  const what = n.state === 'failed' ? 'MIG layout failed on ' + n.node
    : 'MIG layout not ready on ' + n.node + ' (' + n.state + ')';
  return what + ': ' + n.reason + ' — your workloads may stay pending until it is in place (reported '
    + fmt(n.time) + ')';
}

/**
 * The state in words, the time left, and the notices that apply, e.g. "active · 40 min left · ending soon"; a booking
 * awaiting approval says until when its units are held (holdUntil: the page's, from the server).
 */
function status(b, activity, holdUntil) {
  const now = Date.now();
  const start = new Date(b.start).getTime();
  const end = new Date(b.end).getTime();
  const notices = activity ? activity.notices : [];
  const parts = [];
  switch (b.state) {
    case 'CONFIRMED': parts.push('upcoming · starts in ' + span(start - now)); break;
    case 'ACTIVE': parts.push('active · ' + span(end - now) + ' left'); break;
    case 'PENDING_APPROVAL': parts.push('awaiting an admin\'s approval · units held'
      + (holdUntil ? ' until ' + fmt(holdUntil) + ', then it expires unless decided' : '')
      + ' · starts in ' + span(start - now));
      break;
    default: parts.push(b.state.toLowerCase());
  }
  const warn = [];
  const noShow = notices.find((n) => n.type === 'NO_SHOW_WARNING');
  if (noShow) {
    warn.push('no-show warning: released at ' + fmt(noShow.at) + ' unless a workload starts');
  }
  // A BookingEndingSoon notice, or (the notice may not be out yet) the lifecycle's longest lead reached.
  const soon = activity && activity.endingSoonFrom && now >= new Date(activity.endingSoonFrom).getTime();
  if (b.state === 'ACTIVE' && (soon || notices.some((n) => n.type === 'ENDING_SOON'))) {
    warn.push('ending soon: quota goes at ' + fmt(b.end));
  }
  notices.filter((n) => n.type === 'MIG_LAYOUT_NOT_READY').forEach((n) => warn.push(layoutWords(n)));
  const approval = notices.find((n) => n.type.startsWith('APPROVAL_'));
  if (approval && approval.type !== 'APPROVAL_APPROVED') {
    warn.push((approval.type === 'APPROVAL_DENIED' ? 'denied by an admin' : 'not approved in time: expired')
      + (approval.reason ? ': ' + approval.reason : ''));
  }
  notices.filter((n) => n.type === 'UNDERUSED').forEach((n) => warn.push('under-used: ' + n.reason));
  return { text: parts.join(' · '), warn };
}

export async function loadBookings() {
  const page = (await api('GET', '/api/v1/bookings?limit=200')).data;
  // Active bookings, and upcoming ones of flexible pools (quota-projector may warn that their MIG layout is not ready).
  const watched = page.items.filter((b) => b.state === 'ACTIVE' || b.state === 'DENIED'
    || (b.state === 'CONFIRMED' && isFlexible(b.pool)))
    .slice(0, 20);
  const activities = new Map(await Promise.all(watched.map((b) =>
    api('GET', '/api/v1/bookings/' + encodeURIComponent(b.id) + '/workloads')
      .then((r) => [b.id, r.data], () => [b.id, null]))));
  const body = $('bookings').tBodies[0];
  body.innerHTML = '';
  for (const b of page.items) {
    renderBooking(body, b, activities.get(b.id), (page.holdUntil || {})[b.id]);
  }
}

function renderBooking(body, b, activity, holdUntil) {
  const row = body.insertRow();
  row.id = 'booking-' + b.id; // a booked waitlist entry links here
  row.dataset.id = b.id;
  row.dataset.state = b.state;
  const units = isFlexible(b.pool) ? b.quantity + ' × ' + unitName(b.resource) : b.quantity;
  for (const v of [b.pool, units, fmt(b.start), fmt(b.end), b.namespace, b.state]) {
    row.insertCell().textContent = v;
  }
  seriesMark(row.cells[5], b);
  const s = status(b, activity, holdUntil);
  const cell = row.insertCell();
  cell.className = 'status';
  cell.textContent = s.text;
  if (holdUntil) {
    cell.dataset.holdUntil = holdUntil; // the instant itself, beside the words in the reader's zone
  }
  for (const w of s.warn) {
    const note = document.createElement('div');
    note.className = 'notice';
    note.setAttribute('role', 'note');
    note.textContent = '⚠ ' + w;
    cell.appendChild(note);
  }
  if (b.state === 'ACTIVE') {
    cell.appendChild(utilizationLine(b));
  }
  const actions = row.insertCell();
  const what = b.quantity + ' × ' + b.pool + ' from ' + fmt(b.start);
  if (b.state === 'CONFIRMED' || b.state === 'ACTIVE') {
    actions.appendChild(button('Extend 1 h', 'extend', () => change(b, 'PATCH', { end: plusHour(b.end) },
      'Extended ' + what + ' to ' + fmt(plusHour(b.end))), 'Extend ' + what + ' by one hour'));
  }
  if (b.state === 'ACTIVE') {
    actions.appendChild(button('End now', 'end', () => change(b, 'POST', undefined, 'Ended ' + b.quantity + ' × '
      + b.pool + ' now; the rest until ' + fmt(b.end) + ' is free again', '/end'), 'End ' + what + ' now'));
  }
  if (b.state === 'CONFIRMED' || b.state === 'ACTIVE' || b.state === 'PENDING_APPROVAL') {
    actions.appendChild(button('Cancel', 'cancel', () => change(b, 'DELETE', undefined, 'Cancelled ' + what),
      'Cancel ' + what));
  }
  seriesActions(actions, b);
  if (activity && activity.workloads.length) {
    renderWorkloads(body, b, activity.workloads);
  }
}

const plusHour = (iso) => new Date(new Date(iso).getTime() + HOUR).toISOString();

function renderWorkloads(body, b, workloads) {
  const row = body.insertRow();
  row.className = 'workloads';
  row.dataset.booking = b.id;
  const cell = row.insertCell();
  cell.colSpan = 8;
  const list = document.createElement('ul');
  list.setAttribute('aria-label', 'Workloads under ' + b.quantity + ' × ' + b.pool);
  for (const w of workloads) {
    const item = document.createElement('li');
    item.className = 'workload';
    item.dataset.name = w.name;
    item.dataset.state = w.state;
    item.textContent = w.kind + ' ' + w.namespace + '/' + w.name + ': ' + w.state.toLowerCase()
      + (w.reason ? ' (' + w.reason + ')' : '')
      + (w.state === 'IDLE' && w.since ? ' since ' + fmt(w.since) : '');
    if (w.reclaimAt) {
      const note = document.createElement('span');
      note.className = 'notice';
      note.textContent = ' ⚠ reclaim pending: idle, its GPUs are taken at ' + fmt(w.reclaimAt) + ' unless busy';
      item.appendChild(note);
      // Answer the warning: idle-reclaimer holds the reclaim for as long as its bounds allow.
      for (const hours of KEEP_HOURS) {
        item.appendChild(button('Keep ' + hours + ' h', 'keep', () => keep(b, w, hours),
          'Keep ' + w.kind + ' ' + w.name + ' for ' + hours + ' hours'));
      }
    }
    if (w.resumable) {
      item.appendChild(button('Resume', 'resume', () => resume(b, w), 'Resume ' + w.kind + ' ' + w.name));
    }
    list.appendChild(item);
  }
  cell.appendChild(list);
}

async function change(b, method, body, done, suffix) {
  let res;
  try {
    res = await api(method, '/api/v1/bookings/' + encodeURIComponent(b.id) + (suffix || ''), body);
  } catch (e) {
    say(e.message, true);
    return;
  }
  const said = res.status === 202 ? 'Accepted; the decision is still pending.' : done;
  try {
    // Refresh first, so the message never shows beside a list that still shows the old state.
    await refreshViews();
    say(said);
  } catch (e) {
    // The change is made: say so, and that what the page shows is older than it.
    say(said + '; the page could not be refreshed: ' + e.message, true);
  }
}

const KEEP_HOURS = [4, 8, 24];

async function keep(b, w, hours) {
  try {
    const res = await api('POST', '/api/v1/bookings/' + encodeURIComponent(b.id) + '/workloads/'
      + encodeURIComponent(w.kind) + '/' + encodeURIComponent(w.name) + '/keep', { hours });
    if (res.status !== 202 || !res.data || res.data.hoursLeft === undefined) {
      say('Accepted; the decision is still pending.');
    } else {
      say('Kept ' + w.kind + ' ' + w.name + ' for ' + hours + ' h; ' + res.data.hoursLeft
        + ' h left today for this booking');
    }
    await refreshViews();
  } catch (e) {
    const p = e.problem || {};
    if (p.rule === 'KEEP_BOUND') {
      say(p.bound === 'per-answer'
        ? 'Keep refused: at most ' + p.maxHours + ' h per answer'
        : 'Keep refused: ' + (p.hoursLeft || 0) + ' h left today for this booking', true);
    } else {
      say(e.message, true);
    }
  }
}

async function resume(b, w) {
  try {
    await api('POST', '/api/v1/bookings/' + encodeURIComponent(b.id) + '/workloads/' + encodeURIComponent(w.kind)
      + '/' + encodeURIComponent(w.name) + '/resume');
    say('Resumed ' + w.kind + ' ' + w.name + '; its workers come back');
    await refreshViews();
  } catch (e) {
    // No reclaimer configured (503) or none reachable (502): say so plainly, the button cannot help now.
    const down = e.problem && ['RESUME_UNAVAILABLE', 'RECLAIMER_UNAVAILABLE'].includes(e.problem.rule);
    say(down ? 'Resume unavailable: ' + e.message : e.message, true);
  }
}
