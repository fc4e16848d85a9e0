// The gpuaas booking calendar: plain JS against /api/v1, no external assets.
// The token lives in sessionStorage only, so it is gone when the tab closes.
(() => {
  'use strict';
  const TOKEN_KEY = 'gpuaas.token';
  const $ = (id) => document.getElementById(id);
  const HOUR = 3600 * 1000;
  let pools = [];
  let bookingNow = false; // the dialog books from now for a duration instead of a window

  const token = () => sessionStorage.getItem(TOKEN_KEY);

  function claims() {
    try {
      const part = token().split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
      return JSON.parse(atob(part));
    } catch (e) {
      return {};
    }
  }

  function say(text, isError) {
    const m = $('message');
    m.textContent = text;
    m.className = isError ? 'error' : '';
  }

  async function api(method, path, body) {
    if (!token()) {
      throw new Error('paste a bearer token first');
    }
    const headers = { 'Authorization': 'Bearer ' + token(), 'Accept': 'application/json' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
    }
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const data = text ? JSON.parse(text) : null;
    if (!res.ok && res.status !== 202) {
      const err = new Error(describeProblem(data, res.status));
      err.problem = data;
      throw err;
    }
    return { status: res.status, data };
  }

  function describeProblem(p, status) {
    if (!p) {
      return 'HTTP ' + status;
    }
    let text = (p.detail || p.title || ('HTTP ' + status)) + (p.field ? ' [' + p.field + ']' : '');
    if (p.earliestStart) {
      text += ' — earliest start that fits: ' + new Date(p.earliestStart).toLocaleString();
    }
    return text;
  }

  const pad = (n) => String(n).padStart(2, '0');
  const localDate = (d) => d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate());
  const localTime = (d) => pad(d.getHours()) + ':' + pad(d.getMinutes());
  const fmt = (iso) => new Date(iso).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' });

  async function loadPools() {
    pools = (await api('GET', '/api/v1/pools')).data;
    for (const select of [$('pool'), $('dlg-pool')]) {
      const current = select.value;
      select.innerHTML = '';
      for (const p of pools) {
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

  async function loadGrid() {
    const pool = pools.find((p) => p.id === $('pool').value);
    if (!pool) {
      return;
    }
    const days = Number($('days').value);
    const from = new Date($('week-start').value + 'T00:00');
    const to = new Date(from.getTime() + days * 24 * HOUR);
    const q = '?from=' + from.toISOString() + '&to=' + to.toISOString() + '&step=PT1H';
    const report = (await api('GET', '/api/v1/pools/' + encodeURIComponent(pool.id) + '/availability' + q)).data;
    renderGrid(report, from, days, pool.capacity);
  }

  function renderGrid(report, from, days, capacity) {
    const grid = $('grid');
    grid.innerHTML = '';
    const head = grid.insertRow();
    head.appendChild(document.createElement('th'));
    for (let d = 0; d < days; d++) {
      const th = document.createElement('th');
      th.textContent = new Date(from.getTime() + d * 24 * HOUR).toLocaleDateString([], { weekday: 'short', month: 'short', day: 'numeric' });
      head.appendChild(th);
    }
    const now = Date.now();
    for (let h = 0; h < 24; h++) {
      const row = grid.insertRow();
      const th = document.createElement('th');
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
        cell.className = start.getTime() + HOUR <= now ? 'past' : slot.free === 0 ? 'full' : slot.free < capacity ? 'some' : 'free';
        if (cell.className !== 'past') {
          cell.addEventListener('click', () => openDialog(start));
        }
      }
    }
  }

  async function loadBookings() {
    const page = (await api('GET', '/api/v1/bookings?limit=200')).data;
    const body = $('bookings').tBodies[0];
    body.innerHTML = '';
    for (const b of page.items) {
      const row = body.insertRow();
      row.dataset.id = b.id;
      row.dataset.state = b.state;
      for (const v of [b.pool, b.quantity, fmt(b.start), fmt(b.end), b.namespace, b.state]) {
        row.insertCell().textContent = v;
      }
      const actions = row.insertCell();
      if (b.state === 'ACTIVE') {
        const end = document.createElement('button');
        end.type = 'button';
        end.className = 'end';
        end.textContent = 'End now';
        end.title = 'Give the rest of this booking back now';
        end.addEventListener('click', () => endBooking(b));
        actions.appendChild(end);
      }
      if (b.state === 'CONFIRMED' || b.state === 'ACTIVE') {
        const cancel = document.createElement('button');
        cancel.type = 'button';
        cancel.className = 'cancel';
        cancel.textContent = 'Cancel';
        cancel.addEventListener('click', () => cancelBooking(b));
        actions.appendChild(cancel);
      }
    }
  }

  async function cancelBooking(b) {
    try {
      await api('DELETE', '/api/v1/bookings/' + encodeURIComponent(b.id));
      // Refresh first, so the message never shows beside a list that still says CONFIRMED.
      await Promise.all([loadBookings(), loadGrid()]);
      say('Cancelled ' + b.quantity + ' × ' + b.pool + ' from ' + fmt(b.start));
    } catch (e) {
      say(e.message, true);
    }
  }

  async function endBooking(b) {
    try {
      const res = await api('POST', '/api/v1/bookings/' + encodeURIComponent(b.id) + '/end');
      await Promise.all([loadBookings(), loadGrid()]);
      say(res.status === 202 ? 'Ending accepted; the decision is still pending.'
        : 'Ended ' + b.quantity + ' × ' + b.pool + ' now; the rest until ' + fmt(b.end) + ' is free again');
    } catch (e) {
      say(e.message, true);
    }
  }

  function isAdmin() {
    const roles = claims().roles || [];
    return roles.includes('admin');
  }

  function openDialog(start, now) {
    bookingNow = Boolean(now);
    $('dlg-title').textContent = bookingNow ? 'Book now' : 'New booking';
    $('dlg-window').hidden = bookingNow;
    $('dlg-window').disabled = bookingNow; // disabled inputs are not required
    $('dlg-duration-row').hidden = !bookingNow;
    const begin = start || new Date(Math.ceil(Date.now() / HOUR) * HOUR);
    const end = new Date(begin.getTime() + HOUR);
    $('dlg-pool').value = $('pool').value;
    $('dlg-date').value = localDate(begin);
    $('dlg-start').value = localTime(begin);
    $('dlg-end').value = localTime(end);
    // An admin books for a tenant it names, in a namespace of that tenant; its token lists no namespaces.
    const admin = isAdmin();
    $('dlg-tenant-row').hidden = !admin;
    $('dlg-tenant').required = admin;
    $('dlg-namespace-free-row').hidden = !admin;
    $('dlg-namespace').parentElement.hidden = admin;
    const namespaces = claims().namespaces || [];
    const select = $('dlg-namespace');
    select.innerHTML = '';
    for (const ns of namespaces) {
      const o = document.createElement('option');
      o.value = ns;
      o.textContent = ns;
      select.appendChild(o);
    }
    $('dlg-error').textContent = '';
    $('booking-dialog').showModal();
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
    if (bookingNow) {
      body.duration = $('dlg-duration').value; // no start: it starts when it is decided
    } else {
      body.start = start.toISOString();
      body.end = end.toISOString();
    }
    if (isAdmin()) {
      body.tenant = $('dlg-tenant').value;
    }
    try {
      const res = await api('POST', '/api/v1/bookings', body);
      $('booking-dialog').close();
      say(res.status === 202 ? 'Booking accepted; the decision is still pending.'
        : 'Booked ' + res.data.quantity + ' × ' + res.data.pool + ' from ' + fmt(res.data.start) + ' to ' + fmt(res.data.end));
      await Promise.all([loadBookings(), loadGrid()]);
    } catch (e) {
      $('dlg-error').textContent = e.message;
    }
  }

  async function refreshAll() {
    const c = claims();
    $('whoami').textContent = token() ? 'tenant: ' + (c.tenant || '?') + (c.roles && c.roles.includes('admin') ? ' (admin)' : '') : '';
    if (!token()) {
      say('Paste a bearer token to start.');
      return;
    }
    try {
      await loadPools();
      await Promise.all([loadGrid(), loadBookings()]);
      say('');
    } catch (e) {
      say(e.message, true);
    }
  }

  $('token-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const value = $('token').value.trim().replace(/^Bearer\s+/i, '');
    if (value) {
      sessionStorage.setItem(TOKEN_KEY, value);
    }
    $('token').value = '';
    refreshAll();
  });
  $('forget-token').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    location.reload();
  });
  $('refresh').addEventListener('click', refreshAll);
  $('pool').addEventListener('change', () => loadGrid().catch((e) => say(e.message, true)));
  $('week-start').addEventListener('change', () => loadGrid().catch((e) => say(e.message, true)));
  $('days').addEventListener('change', () => loadGrid().catch((e) => say(e.message, true)));
  $('book-button').addEventListener('click', () => openDialog());
  $('book-now-button').addEventListener('click', () => openDialog(null, true));
  $('dlg-cancel').addEventListener('click', () => $('booking-dialog').close());
  $('booking-form').addEventListener('submit', submitBooking);
  $('week-start').value = localDate(new Date());
  refreshAll();
})();
