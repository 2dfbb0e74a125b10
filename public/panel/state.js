/**
 * The state of one panel screen: the accounts and webhook key, the selected account, the
 * sandbox clock as last read, the loaded lists, the scenarios, which rows are open, the
 * actions in flight and the open refund forms. Also the one `render()` every module calls
 * after changing the state (panel.js installs it).
 */

/** @import { Account, AccountSettings, GoLiveReport, List, ListItems, ListName, LiveStatus, ScenarioSummary, WebhookKeyForms } from './types.js' */

/** The lists, in the order they are loaded. @type {readonly ListName[]} */
export const LISTS = ['transactions', 'subscriptions', 'deliveries', 'requests'];

/**
 * An empty, not yet loaded list.
 * @template T
 * @returns {List<T>}
 */
export const emptyList = () => ({ items: [], pages: 1, nextCursor: null, loaded: false, error: null });

/** @returns {{ [K in ListName]: List<ListItems[K]> }} */
export const emptyLists = () => ({ transactions: emptyList(), subscriptions: emptyList(), deliveries: emptyList(), requests: emptyList() });

export const state = {
  /** @type {Account[]} */
  accounts: [],
  /** @type {WebhookKeyForms | null} */
  webhookKey: null,
  /** The sandbox's default webhook target (`--notification-url`), once the credentials are read. @type {string | null} */
  notificationUrl: null,
  /** @type {string | null} */
  accountId: null,
  /** The sandbox clock as last read: epoch ms, the performance.now() of the reading, and the offset in seconds. @type {{ ms: number, at: number, offset: number } | null} */
  clock: null,
  /** The selected account's rate limit and latency, as last read. @type {AccountSettings | null} */
  load: null,
  lists: emptyLists(),
  /** @type {{ items: ScenarioSummary[] | null, error: string | null }} */
  scenarios: { items: null, error: null },
  /** The go-live report of the selected account. @type {{ data: GoLiveReport | null, error: string | null }} */
  report: { data: null, error: null },
  /** "kind:id" of the expanded rows. @type {Set<string>} */
  expanded: new Set(),
  /** id -> the action in flight on it ('settle', 'refund', ...). @type {Map<string, string>} */
  busy: new Map(),
  /** transaction id -> the typed value and error of its open refund form. @type {Map<string, { value: string, error: string | null }>} */
  refundForms: new Map(),
  /** @type {LiveStatus} */
  live: 'connecting',
};

/** The selected account, or null. */
export const selectedAccount = () => state.accounts.find((a) => a.account_id === state.accountId) ?? null;

/** The sandbox clock now (epoch ms), running on from its last reading. */
export function nowMs() {
  return state.clock ? state.clock.ms + (performance.now() - state.clock.at) : Date.now();
}

let renderer = () => {};

/** Installs the function that brings the page up to date with the state. @param {() => void} fn */
export function setRenderer(fn) {
  renderer = fn;
}

/** Brings the page up to date with the state. */
export function render() {
  renderer();
}

/** An element the page must have. @param {string} id */
export const byId = (id) => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`payment-sandbox panel: #${id} is missing`);
  return el;
};
