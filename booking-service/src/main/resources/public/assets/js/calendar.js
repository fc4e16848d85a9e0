// One pool's free units per hour over days (the grid), and the booking dialog every view opens.
import { $, api, claims, fmt, HOUR, isAdmin, localDate, localTime, pad, refreshViews, say, state } from './api.js';
import { isFlexible, profilesOf } from './fleet.js';
import { repeats, resetRepeat, submitSeries } from './series.js';
import { resetWaitlist, waitingWords, waitlistAsk } from './waitlist.js';

let bookingNow = false; // the dialog books from now for a duration instead of a window

export function fillPoolSelects() {
  for (const select of [$('pool'), $('dlg-pool')]) {
    const current = select.value;
    select.innerHTML = '';
    for (const p of state.pools) {
      const o = document.createElement('option');
      o.value = p.id;
      o.textContent = p.id + ' (' + p.capacity + ' × ' + p.resource + ')';
      select.appendChild(o);
    }
    if (current) {
      select.value = current;
    }
  }
}

export async function loadGrid() {
  const pool = state.pools.find((p) => p.id === $('pool').value);
  if (!pool) {
    return;
  }
  const days = Number($('days').value);
  const from = new Date($('week-start').value + 'T00:00');
  const to = new Date(from.getTime() + days * 24 * HOUR);
  const q = '?from=' + from.toISOString() + '&to=' + to.toISOString() + '&step=PT1H';
  const report = (await api('GET', '/api/v1/pools/' + encodeURIComponent(pool.id) + '/availability' + q)).data;
  renderGrid(report, from, days, pool.capacity);
  $('grid-legend').textContent = (isFlexible(pool.id)
    ? 'Whole GPUs free per hour of ' + pool.id + ' (your local time): a GPU holding any booked MIG slice is not free;'
      + ' per profile see "Flexible pool by MIG profile".'
    : 'Free units per hour (your local time).') + ' Click a cell to book from that hour.';
}

function renderGrid(report, from, days, capacity) {
  const grid = $('grid');
  grid.innerHTML = '';
  const head = grid.insertRow();
  head.appendChild(document.createElement('th'));
  for (let d = 0; d < days; d++) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = new Date(from.getTime() + d * 24 * HOUR)
      .toLocaleDateString([], { weekday: 'short', month: 'short', day: 'numeric' });
    head.appendChild(th);
  }
  const now = Date.now();
  for (let h = 0; h < 24; h++) {
    const row = grid.insertRow();
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = pad(h) + ':00';
    row.appendChild(th);
    for (let d = 0; d < days; d++) {
      const slot = report.slots[d * 24 + h];
      const cell = row.insertCell();
      if (!slot) {
        continue;
      }
      const start = new Date(slot.start);
      cell.textContent = slot.free + '/' + capacity;
      cell.dataset.start = slot.start;
      cell.className = start.getTime() + HOUR <= now ? 'past'
        : slot.free === 0 ? 'full' : slot.free < capacity ? 'some' : 'free';
      if (cell.className !== 'past') {
        cell.addEventListener('click', () => openDialog({ start }));
      }
    }
  }
}

/** Opens the dialog: {start, end, pool, quantity} prefill a window; {now: true} books from now for a duration. */
export function openDialog(opts = {}) {
  bookingNow = Boolean(opts.now);
  $('dlg-title').textContent = bookingNow ? 'Book now' : 'New booking';
  $('dlg-window').hidden = bookingNow;
  $('dlg-window').disabled = bookingNow; // disabled inputs are not required
  $('dlg-duration-row').hidden = !bookingNow;
  resetRepeat(bookingNow);
  resetWaitlist();
  const begin = opts.start || new Date(Math.ceil(Date.now() / HOUR) * HOUR);
  const end = opts.end || new Date(begin.getTime() + HOUR);
  $('dlg-pool').value = opts.pool || $('pool').value;
  $('dlg-quantity').value = opts.quantity || 1;
  showProfiles();
  $('dlg-date').value = localDate(begin);
  $('dlg-start').value = localTime(begin);
  $('dlg-end').value = localTime(end);
  // An admin books for a tenant it names, in a namespace of that tenant; its token lists no namespaces.
  const admin = isAdmin();
  $('dlg-tenant-row').hidden = !admin;
  $('dlg-tenant').required = admin;
  $('dlg-namespace-free-row').hidden = !admin;
  $('dlg-namespace').parentElement.hidden = admin;
  const select = $('dlg-namespace');
  select.innerHTML = '';
  for (const ns of claims().namespaces || []) {
    const o = document.createElement('option');
    o.value = ns;
    o.textContent = ns;
    select.appendChild(o);
  }
  $('dlg-error').textContent = '';
  $('booking-dialog').showModal();
}

/** A flexible pool is booked by MIG profile (or whole GPUs): the dialog offers its profiles. */
async function showProfiles() {
  const pool = $('dlg-pool').value;
  const row = $('dlg-profile-row');
  row.hidden = !isFlexible(pool);
  if (row.hidden) {
    return;
  }
  const select = $('dlg-profile');
  select.innerHTML = '';
  const whole = document.createElement('option');
  whole.value = '';
  whole.textContent = 'whole GPUs';
  select.appendChild(whole);
  try {
    for (const p of await profilesOf(pool)) {
      const o = document.createElement('option');
      o.value = p;
      o.textContent = p;
      select.appendChild(o);
    }
  } catch (e) {
    $('dlg-error').textContent = 'Profiles unavailable: ' + e.message;
  }
}

async function submitBooking(event) {
  event.preventDefault();
  const date = $('dlg-date').value;
  const start = new Date(date + 'T' + $('dlg-start').value);
  let end = new Date(date + 'T' + $('dlg-end').value);
  if (end <= start) {
    end = new Date(end.getTime() + 24 * HOUR); // an end before the start means the next day
  }
  const body = {
    pool: $('dlg-pool').value,
    quantity: Number($('dlg-quantity').value),
    namespace: isAdmin() ? $('dlg-namespace-free').value : $('dlg-namespace').value,
    purpose: $('dlg-purpose').value || undefined,
  };
  if (isFlexible(body.pool) && $('dlg-profile').value) {
    body.profile = $('dlg-profile').value;
  }
  if (bookingNow) {
    body.duration = $('dlg-duration').value; // no start: it starts when it is decided
  } else {
    body.start = start.toISOString();
    body.end = end.toISOString();
  }
  if (isAdmin()) {
    body.tenant = $('dlg-tenant').value;
  }
  body.waitlist = waitlistAsk();
  if (repeats()) {
    if (body.waitlist) {
      $('dlg-error').textContent = 'A series cannot wait for room: clear "wait for it until" or the repeat days';
      return;
    }
    await submitSeries(body);
    return;
  }
  try {
    const res = await api('POST', '/api/v1/bookings', body);
    $('booking-dialog').close();
    await refreshViews(); // first, so the message never shows beside views without the booking
    say(waitingWords(res) || (res.status === 202 ? 'Booking accepted; the decision is still pending.'
      : 'Booked ' + res.data.quantity + ' × ' + res.data.pool + ' from ' + fmt(res.data.start)
        + ' to ' + fmt(res.data.end)));
  } catch (e) {
    const p = e.problem || {};
    $('dlg-error').textContent = e.message
      + (p.earliestStart ? ' — earliest start that fits: ' + fmt(p.earliestStart) : '');
  }
}

export function initCalendar() {
  const reload = () => loadGrid().catch((e) => say(e.message, true));
  $('pool').addEventListener('change', reload);
  $('week-start').addEventListener('change', reload);
  $('days').addEventListener('change', reload);
  $('book-button').addEventListener('click', () => openDialog());
  $('book-now-button').addEventListener('click', () => openDialog({ now: true }));
  $('dlg-cancel').addEventListener('click', () => $('booking-dialog').close());
  $('dlg-pool').addEventListener('change', showProfiles);
  $('booking-form').addEventListener('submit', submitBooking);
  $('week-start').value = localDate(new Date());
  state.refreshers.push(loadGrid);
}
