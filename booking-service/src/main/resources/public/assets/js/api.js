// The page's one door to /api/v1 (same origin, no CORS) and the helpers every module shares.
// The token lives in sessionStorage only, so it is gone when the tab closes. Behind the cluster's OAuth proxy there
// is no token here: the proxy's session cookie goes with every same-origin call and /api/v1/me says who it is.
const TOKEN_KEY = 'gpuaas.token';
let clusterUser = null;

export const $ = (id) => document.getElementById(id);
export const HOUR = 3600 * 1000;
export const MINUTE = 60 * 1000;

export const token = () => sessionStorage.getItem(TOKEN_KEY);

export function saveToken(value) {
  if (value) {
    sessionStorage.setItem(TOKEN_KEY, value);
  }
}

export function forgetToken() {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** Asks who the proxy signed in (only without a pasted token); the page then hides the paste field. */
export async function findClusterUser() {
  if (!token()) {
    const res = await fetch('/api/v1/me', { headers: { 'Accept': 'application/json' } });
    const me = res.ok ? await res.json() : null;
    clusterUser = me && me.signedIn && me.signedInBy === 'cluster' ? me : null;
  }
  return clusterUser;
}

export const signedInByCluster = () => clusterUser !== null && !token();

export function claims() {
  if (signedInByCluster()) {
    return clusterUser;
  }
  try {
    const part = token().split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(part));
  } catch (e) {
    return {};
  }
}

export const isAdmin = () => (claims().roles || []).includes('admin');

export function say(text, isError) {
  const m = $('message');
  m.textContent = text;
  m.className = isError ? 'error' : '';
}

/**
 * Calls the API; resolves with {status, data} for 2xx and 202, rejects with an Error carrying the problem. With an
 * accept other than JSON (the usage CSV) data is the body's text. A GET refused by the tenant's rate limit (429) is
 * asked again after the answer's Retry-After, a few times at most: a page with many bookings reads a lot at once.
 * Nothing else is repeated, so a create, change or cancel is never sent twice.
 */
export async function api(method, path, body, accept) {
  if (!token() && !signedInByCluster()) {
    throw new Error('paste a bearer token first');
  }
  const headers = { 'Accept': accept || 'application/json' };
  if (token()) {
    headers['Authorization'] = 'Bearer ' + token();
  }
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  let res = await fetch(path, init);
  for (let retry = 0; res.status === 429 && method === 'GET' && retry < RATE_LIMIT_RETRIES; retry++) {
    await pause(retryAfterMs(res.headers.get('Retry-After')));
    res = await fetch(path, init);
  }
  const text = await res.text();
  const data = accept && res.ok ? text : text ? JSON.parse(text) : null;
  if (!res.ok && res.status !== 202) {
    const err = new Error(describeProblem(data, res.status));
    err.problem = data || {};
    err.status = res.status;
    throw err;
  }
  return { status: res.status, data };
}

const RATE_LIMIT_RETRIES = 4;
const MAX_RETRY_WAIT_MS = 10 * 1000;

/**
 * How long to wait before asking again: the Retry-After seconds (the service sends whole seconds; an HTTP date is
 * allowed too; none: 1 s) plus up to a quarter more, so the page's many refused reads do not all come back at once;
 * never more than 10 s.
 */
function retryAfterMs(header) {
  const seconds = Number(header);
  const given = header && Number.isNaN(seconds) ? Date.parse(header) - Date.now() : seconds * 1000;
  const wait = Number.isFinite(given) && given > 0 ? given : 1000;
  return Math.min(wait * (1 + Math.random() / 4), MAX_RETRY_WAIT_MS);
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function describeProblem(p, status) {
  if (!p) {
    return 'HTTP ' + status;
  }
  return (p.detail || p.title || ('HTTP ' + status)) + (p.field ? ' [' + p.field + ']' : '');
}

export const pad = (n) => String(n).padStart(2, '0');
export const localDate = (d) => d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate());
export const localTime = (d) => pad(d.getHours()) + ':' + pad(d.getMinutes());
export const fmt = (iso) => new Date(iso).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' });

/** "2 h 5 min", "12 min", "40 s": how long until (or since) a moment, for people. */
export function span(ms) {
  const m = Math.round(Math.abs(ms) / MINUTE);
  if (m < 1) {
    return Math.round(Math.abs(ms) / 1000) + ' s';
  }
  if (m < 60) {
    return m + ' min';
  }
  const h = Math.floor(m / 60);
  return h < 48 ? h + ' h' + (m % 60 ? ' ' + (m % 60) + ' min' : '') : Math.round(h / 24) + ' d';
}

export function button(text, className, onClick, label) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = className;
  b.textContent = text;
  if (label) {
    b.setAttribute('aria-label', label);
  }
  b.addEventListener('click', onClick);
  return b;
}

/** Shared state the modules read: the pools (loaded once per refresh) and what to redraw after a change. */
export const state = { pools: [], refreshers: [] };

export async function refreshViews() {
  await Promise.all(state.refreshers.map((r) => r()));
}
