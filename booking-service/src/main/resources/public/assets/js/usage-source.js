// Every read of the usage ledger (metrics-gateway behind booking-service's /api/v1/usage...) goes through here.
// When the service has no usage configured (503 LEDGER_UNAVAILABLE: no ledger-url) it stays so until it is
// redeployed, yet the page redraws every view at each refresh and click, and each read would spend the tenant's rate
// limit on that same answer. So after it, the views get that answer again for 5 minutes without asking.
import { api } from './api.js';

export const UNCONFIGURED_MS = 5 * 60 * 1000;
const unconfigured = { until: 0, error: null };

const isUnconfigured = (e) => e.status === 503 && (e.problem || {}).rule === 'LEDGER_UNAVAILABLE';

/**
 * GET path as api() does. While usage is known not to be configured, rejects with that same error at once, unless
 * ask is set (a user's click, which always goes out); every answer updates what is known.
 */
export async function readUsage(path, { accept, ask } = {}) {
  if (!ask && Date.now() < unconfigured.until) {
    throw unconfigured.error;
  }
  try {
    const answer = await api('GET', path, undefined, accept);
    unconfigured.until = 0;
    return answer;
  } catch (e) {
    if (isUnconfigured(e)) {
      unconfigured.until = Date.now() + UNCONFIGURED_MS;
      unconfigured.error = e;
    }
    throw e;
  }
}
