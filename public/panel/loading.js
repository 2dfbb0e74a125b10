/**
 * Loading the control API's data into the state: accounts and keys, currencies, the clock,
 * scenarios and the lists (as many pages as are shown). A change on the event stream marks
 * kinds of data stale; a burst of changes is one reload. Nothing is polled.
 */
import { call, query } from './api.js';
import { setExponents } from './format.js';
import { LISTS, render, state } from './state.js';

/** @import { AccountSettings, Clock, Credentials, GoLiveReport, ListItems, ListName, Page, ScenarioSummary } from './types.js' */
/** @typedef {ListName | 'accounts' | 'clock' | 'scenarios' | 'report'} Kind */

const PAGE_SIZE = 50;
const ACCOUNT_KEY = 'payment-sandbox.account';
/** @type {Record<ListName, string>} */
const LIST_PATHS = { transactions: '/transactions', subscriptions: '/subscriptions', deliveries: '/deliveries', requests: '/requests' };

/** The account chosen last time on this browser. */
export const storedAccountId = () => localStorage.getItem(ACCOUNT_KEY);
/** Remembers the chosen account. @param {string} id */
export const storeAccountId = (id) => localStorage.setItem(ACCOUNT_KEY, id);

async function loadAccounts() {
  /** @type {Credentials} */
  const creds = await call('GET', '/credentials');
  state.accounts = creds.accounts;
  state.webhookKey = creds.webhook_public_key;
  state.notificationUrl = creds.notification_url;
  if (!state.accounts.some((a) => a.account_id === state.accountId)) {
    const stored = storedAccountId();
    state.accountId = (state.accounts.find((a) => a.account_id === stored) ?? state.accounts[0])?.account_id ?? null;
  }
}

/** Loads the ISO 4217 exponents amounts are shown with. */
export async function loadCurrencies() {
  /** @type {{ exponents: Record<string, number> }} */
  const body = await call('GET', '/currencies');
  setExponents(body.exponents);
}

/** The selected account's clock (the sandbox clock plus the account's own offset); the sandbox clock before an account is known. */
async function loadClock() {
  const accountId = state.accountId;
  /** @type {[Clock, AccountSettings | null]} */
  const [clock, load] = await Promise.all([
    call('GET', accountId ? `/accounts/${encodeURIComponent(accountId)}/clock` : '/clock'),
    accountId ? call('GET', `/accounts/${encodeURIComponent(accountId)}`) : Promise.resolve(null),
  ]);
  if (accountId !== state.accountId) return; // another account was selected meanwhile: its own reading follows
  state.load = load;
  state.clock = { ms: Date.parse(clock.now), at: performance.now(), offset: clock.offset_seconds };
}

async function loadScenarios() {
  try {
    /** @type {{ scenarios: ScenarioSummary[] }} */
    const body = await call('GET', '/scenarios');
    state.scenarios = { items: body.scenarios, error: null };
  } catch (err) {
    state.scenarios = { items: null, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The go-live report of the selected account (GET /_sandbox/report). */
async function loadReport() {
  const accountId = state.accountId;
  if (!accountId) return;
  try {
    /** @type {GoLiveReport} */
    const data = await call('GET', `/report${query({ account_id: accountId })}`);
    if (accountId === state.accountId) state.report = { data, error: null };
  } catch (err) {
    if (accountId === state.accountId) state.report = { data: null, error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Reloads a list from its first page through as many pages as are shown.
 * @template {ListName} K
 * @param {K} kind
 */
async function loadList(kind) {
  const accountId = state.accountId;
  if (!accountId) return;
  /** @type {ListItems[K][]} */
  const items = [];
  /** @type {string | undefined} */
  let cursor;
  /** @type {string | null} */
  let nextCursor = null;
  let pages = 0;
  const list = /** @type {import('./types.js').List<ListItems[K]>} */ (state.lists[kind]);
  try {
    do {
      /** @type {Page<ListItems[K]>} */
      const page = await call('GET', LIST_PATHS[kind] + query({ account_id: accountId, limit: PAGE_SIZE, cursor }));
      items.push(...page.items);
      nextCursor = page.next_cursor;
      cursor = nextCursor ?? undefined;
      pages += 1;
    } while (pages < list.pages && nextCursor);
    if (accountId !== state.accountId) return;
    Object.assign(list, { items, nextCursor, loaded: true, error: null });
  } catch (err) {
    if (accountId !== state.accountId) return;
    Object.assign(list, { loaded: true, error: err instanceof Error ? err.message : String(err) });
  }
}

/** @type {Record<Kind, () => Promise<void>>} */
const LOADERS = {
  accounts: loadAccounts,
  clock: loadClock,
  scenarios: loadScenarios,
  report: loadReport,
  transactions: () => loadList('transactions'),
  subscriptions: () => loadList('subscriptions'),
  deliveries: () => loadList('deliveries'),
  requests: () => loadList('requests'),
};

/** @type {Map<Kind, { again: boolean, promise: Promise<void> }>} */
const loading = new Map();

/**
 * Loads one kind of data and re-renders; a call while one is under way runs it once more after.
 * @param {Kind} kind
 * @returns {Promise<void>}
 */
export function refresh(kind) {
  const running = loading.get(kind);
  if (running) {
    running.again = true;
    return running.promise;
  }
  const entry = { again: false, promise: Promise.resolve() };
  entry.promise = (async () => {
    do {
      entry.again = false;
      try {
        await LOADERS[kind]();
      } catch (err) {
        console.error(`payment-sandbox panel: loading ${kind} failed`, err);
      }
    } while (entry.again);
    loading.delete(kind);
    render();
  })();
  loading.set(kind, entry);
  return entry.promise;
}

/** @type {Set<Kind>} */
const pending = new Set();
let flushTimer = 0;

/**
 * Marks kinds of data stale; they reload together a moment later.
 * @param {readonly Kind[]} kinds
 */
export function invalidate(kinds) {
  for (const kind of kinds) pending.add(kind);
  if (flushTimer) return;
  flushTimer = window.setTimeout(() => {
    flushTimer = 0;
    const due = [...pending];
    pending.clear();
    for (const kind of due) void refresh(kind);
  }, 30);
}

/**
 * What each kind of change on the feed makes stale, and whether that holds only for the
 * account it belongs to (`own`). Keyed by the server's closed list of change types, so a new
 * kind fails the type check here until the panel knows what it touches.
 * @type {Record<import('./api.js').ChangeEvent['type'], { stale: readonly Kind[], own: boolean }>}
 */
const STALE_AFTER = {
  'sandbox.reset': { stale: ['clock', ...LISTS], own: false },
  'account.created': { stale: ['accounts'], own: false },
  'account.updated': { stale: ['clock'], own: true }, // its rate limit and latency are read with its clock
  'api_key.created': { stale: ['accounts'], own: true },
  'api_key.revoked': { stale: ['accounts'], own: true },
  'scenarios.changed': { stale: ['scenarios'], own: false },
  'clock.advanced': { stale: ['clock', ...LISTS], own: false },
  'transaction.created': { stale: ['transactions', 'deliveries', 'subscriptions'], own: true },
  'transaction.updated': { stale: ['transactions', 'deliveries', 'subscriptions'], own: true },
  'refund.created': { stale: ['transactions', 'deliveries', 'subscriptions'], own: true },
  'subscription.created': { stale: ['subscriptions', 'transactions'], own: true },
  'subscription.updated': { stale: ['subscriptions', 'transactions'], own: true },
  'delivery.attempted': { stale: ['deliveries'], own: true },
  'request.logged': { stale: ['requests'], own: true },
  'report.changed': { stale: ['report'], own: true },
};

/**
 * What each change on the feed makes stale.
 * @param {Pick<import('./api.js').ChangeEvent, 'type' | 'account_id'>} event
 */
export function onChange(event) {
  // Requests, deliveries, outcomes and resets all feed the go-live report.
  if (!event.account_id || event.account_id === state.accountId) invalidate(['report']);
  const effect = STALE_AFTER[event.type];
  if (!effect) return invalidate(LISTS); // a server newer than this page
  if (effect.own && event.account_id && event.account_id !== state.accountId) return;
  if (event.type === 'sandbox.reset') {
    state.expanded.clear();
    state.refundForms.clear();
  }
  invalidate(effect.stale);
}
