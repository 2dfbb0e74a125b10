/**
 * The page frame around the views: the account switcher, the navigation (which view is
 * shown, with counts and alerts per tab), the live indicator and the Reset dialog.
 */
import { resetSandbox, selectAccount } from './actions.js';
import { h, setChildren } from './dom.js';
import { byId, selectedAccount, state } from './state.js';

/** @import { AccountSettings, LiveStatus, ListName, ViewName } from './types.js' */

/** @type {readonly ViewName[]} */
export const VIEWS = ['transactions', 'subscriptions', 'webhooks', 'requests', 'go-live', 'credentials', 'scenarios'];

/** The view the address names (default: transactions). @returns {ViewName} */
function currentView() {
  const name = window.location.hash.replace(/^#/, '');
  return VIEWS.find((view) => view === name) ?? 'transactions';
}

/** Shows one view and marks its tab. @param {ViewName} [name] */
export function showView(name = currentView()) {
  for (const view of VIEWS) {
    byId(`view-${view}`).hidden = view !== name;
    const link = document.querySelector(`[data-nav="${view}"]`);
    if (view === name) link?.setAttribute('aria-current', 'page');
    else link?.removeAttribute('aria-current');
  }
}

/** Wires the account switcher, navigation and the Reset dialog. */
export function setUpFrame() {
  byId('account').addEventListener('change', (event) => selectAccount(/** @type {HTMLSelectElement} */ (event.target).value));
  window.addEventListener('hashchange', () => showView());
  const dialog = /** @type {HTMLDialogElement} */ (byId('reset-dialog'));
  byId('reset').addEventListener('click', () => dialog.showModal());
  byId('reset-keep').addEventListener('click', () => dialog.close());
  byId('reset-confirm').addEventListener('click', () => {
    dialog.close();
    void resetSandbox();
  });
  showView();
}

/** The account switcher and the page title. */
function renderAccounts() {
  byId('account-load').textContent = loadText(state.load?.account_id === state.accountId ? state.load : null);
  const select = /** @type {HTMLSelectElement} */ (byId('account'));
  const signature = JSON.stringify([state.accounts.map((a) => [a.account_id, a.name, a.mode]), state.accountId]);
  if (select.dataset.signature === signature) return;
  select.dataset.signature = signature;
  setChildren(
    select,
    state.accounts.map((a) =>
      h(
        'option',
        { value: a.account_id, selected: a.account_id === state.accountId },
        a.name === a.mode ? `${a.mode} mode` : `${a.name} · ${a.mode} mode`,
      ),
    ),
  );
  select.value = state.accountId ?? '';
  const account = selectedAccount();
  byId('account-id').textContent = account?.account_id ?? '';
  document.title = account ? `${account.name} · payment-sandbox` : 'payment-sandbox';
}

/**
 * @param {ViewName} view
 * @param {string} text
 * @param {string} [alert]
 */
function setCount(view, text, alert) {
  const count = document.querySelector(`[data-nav="${view}"] .count`);
  if (count) count.textContent = text;
  const alertEl = document.querySelector(`[data-nav="${view}"] .count-alert`);
  if (alertEl instanceof HTMLElement) {
    alertEl.textContent = alert ?? '';
    alertEl.hidden = !alert;
  }
}

/** The tab counts: items loaded ("50+" when there are more) and what needs attention. */
function renderCounts() {
  /** @param {ListName} kind */
  const count = (kind) => {
    const list = state.lists[kind];
    return list.loaded ? `${list.items.length}${list.nextCursor ? '+' : ''}` : '';
  };
  const pendingCount = state.lists.transactions.items.filter((tx) => tx.status === 'PENDING').length;
  const troubled = state.lists.deliveries.items.filter((d) => d.state === 'failed' || d.state === 'retrying').length;
  const rejected = state.lists.requests.items.filter((r) => r.status >= 400).length;
  setCount('transactions', count('transactions'), pendingCount ? `${pendingCount} pending` : '');
  setCount('subscriptions', count('subscriptions'));
  setCount('webhooks', count('deliveries'), troubled ? `${troubled} failing` : '');
  setCount('requests', count('requests'), rejected ? `${rejected} 4xx/5xx` : '');
  const summary = state.report.data?.summary;
  setCount(
    'go-live',
    summary ? `${summary.errors + summary.warnings + summary.infos}` : '',
    summary && summary.errors > 0 ? `${summary.errors} error${summary.errors === 1 ? '' : 's'}` : '',
  );
  setCount('credentials', String(state.accounts.length));
  setCount('scenarios', state.scenarios.items ? String(state.scenarios.items.length) : '');
}

/** The live indicator. @param {LiveStatus} status */
export function setLive(status) {
  state.live = status;
  const el = byId('live');
  el.dataset.state = status;
  const text = el.querySelector('.live-text');
  if (text) text.textContent = status === 'live' ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Reconnecting…';
  el.title = status === 'live' ? 'Following /_sandbox/events: changes appear as they happen' : 'The event stream dropped; retrying';
}

/** Brings the frame up to date with the state. */
export function renderFrame() {
  renderAccounts();
  renderCounts();
  /** @type {HTMLButtonElement} */ (byId('reset')).disabled = state.busy.has('sandbox');
}

/**
 * The selected account's load rehearsal: "429 over 25 req/s · latency p50 80 ms, p99 900 ms".
 * @param {AccountSettings | null} load
 */
export function loadText(load) {
  if (!load) return '';
  const { p50_ms: p50, p99_ms: p99 } = load.latency;
  const limit = load.rate_limit > 0 ? `429 over ${load.rate_limit} req/s` : 'no rate limit';
  const latency = p99 <= 0 ? 'no added latency' : p50 === p99 ? `latency ${p50} ms` : `latency p50 ${p50} ms, p99 ${p99} ms`;
  return `${limit} · ${latency}`;
}
