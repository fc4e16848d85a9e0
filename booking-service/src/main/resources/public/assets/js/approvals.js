// Admin view: the bookings over their pool's approval threshold that wait for an admin, each with Approve and Deny.
// A pending booking holds its units until decided or until its hold runs out (then it expires on its own): the
// "Held until" column says when, from the page's holdUntil.
import { $, api, button, fmt, isAdmin, refreshViews, say } from './api.js';

export async function loadApprovals() {
  $('approvals').hidden = !isAdmin();
  if (!isAdmin()) {
    return;
  }
  const page = (await api('GET', '/api/v1/bookings?state=PENDING_APPROVAL&limit=200')).data;
  const body = $('awaiting-approval').tBodies[0];
  body.innerHTML = '';
  $('approvals-status').textContent = page.items.length ? '' : 'Nothing awaits approval.';
  for (const b of page.items) {
    const row = body.insertRow();
    row.dataset.id = b.id;
    for (const v of [b.tenant, b.pool, b.quantity, fmt(b.start), fmt(b.end)]) {
      row.insertCell().textContent = v;
    }
    const held = (page.holdUntil || {})[b.id];
    const heldCell = row.insertCell();
    if (held) {
      const time = document.createElement('time');
      time.dateTime = held;
      time.textContent = fmt(held);
      heldCell.appendChild(time);
    }
    row.insertCell().textContent = b.purpose || '';
    const what = b.quantity + ' × ' + b.pool + ' for ' + b.tenant + ' from ' + fmt(b.start);
    const actions = row.insertCell();
    actions.appendChild(button('Approve', 'approve', () => decide(b, 'approve', 'Approved ' + what),
      'Approve ' + what));
    actions.appendChild(button('Deny', 'deny', () => decide(b, 'deny', 'Denied ' + what), 'Deny ' + what));
  }
}

async function decide(b, decision, done) {
  try {
    await api('POST', '/api/v1/bookings/' + encodeURIComponent(b.id) + '/approval', { decision });
    await refreshViews();
    say(done);
  } catch (e) {
    say(e.message, true);
  }
}
