// The team dashboard: signs in with a pasted token (or the cluster's OAuth proxy did), draws the overview and keeps
// the views in step.
import {
  $, claims, findClusterUser, forgetToken, refreshViews, api, saveToken, say, signedInByCluster, state, token,
} from './api.js';
import { loadAdmin } from './admin.js';
import { loadApprovals } from './approvals.js';
import { loadBookings } from './bookings.js';
import { fillPoolSelects, initCalendar } from './calendar.js';
import { initFleet } from './fleet.js';
import { initHeatmap } from './heatmap.js';
import { initUsage } from './usage.js';
import { initMonthCost } from './cost.js';
import { loadWaitlist } from './waitlist.js';

let firstDraw = true;

async function refreshAll() {
  // The first draw of a page opened with a token counts from navigation start; a sign-in from the paste.
  const from = firstDraw ? 0 : performance.now();
  const c = claims();
  const signedIn = token() || signedInByCluster();
  $('whoami').textContent = signedIn ? (signedInByCluster() ? 'signed in as ' + c.subject + ', ' : '')
    + 'tenant: ' + (c.tenant || '?') + (c.roles && c.roles.includes('admin') ? ' (admin)' : '') : '';
  if (!signedIn) {
    say('Paste a bearer token to start.');
    return;
  }
  try {
    state.pools = (await api('GET', '/api/v1/pools')).data;
    fillPoolSelects();
    await refreshViews();
    performance.measure('overview-drawn', { start: from, end: performance.now() });
    document.body.dataset.drawn = 'true';
    firstDraw = false;
    say('');
  } catch (e) {
    say(e.message, true);
  }
}

$('token-form').addEventListener('submit', (e) => {
  e.preventDefault();
  saveToken($('token').value.trim().replace(/^Bearer\s+/i, ''));
  $('token').value = '';
  firstDraw = false;
  refreshAll();
});
$('forget-token').addEventListener('click', () => {
  forgetToken();
  location.reload();
});
$('refresh').addEventListener('click', refreshAll);
initHeatmap();
initCalendar();
initUsage();
initMonthCost();
initFleet();
state.refreshers.push(loadBookings, loadAdmin, loadApprovals, loadWaitlist);
// Signed in by the cluster's proxy: nothing to paste (the proxy's own /oauth/sign_out ends the session).
findClusterUser().catch(() => null).then(() => {
  for (const id of ['token', 'save-token', 'forget-token']) {
    $(id).hidden = signedInByCluster();
  }
  document.querySelector('label[for="token"]').hidden = signedInByCluster();
  refreshAll();
});
