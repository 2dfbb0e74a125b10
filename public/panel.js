/**
 * The control panel: a client of the control API (/_sandbox) and its event stream only.
 * It holds the state of one screen (the selected account, the loaded pages, which rows are
 * open), reloads what a server-sent change touches (no polling), and turns clicks into
 * control calls, showing the API's own error message when one fails. Views live in
 * panel/views/; every merchant string reaches the page as text (panel/dom.js).
 */
import { ApiError, call, followEvents, query } from './panel/api.js';
import { h, setChildren } from './panel/dom.js';
import { examples } from './panel/examples.js';
import { clockParts, fullTime, money, offsetText, parseMajor, secondsToNextMonth, setExponents, toMajorPlain } from './panel/format.js';
import { credentialsView } from './panel/views/credentials.js';
import { deliveriesView, deliveryState } from './panel/views/deliveries.js';
import { requestsView } from './panel/views/requests.js';
import { scenariosView } from './panel/views/scenarios.js';
import { subscriptionsView } from './panel/views/subscriptions.js';
import { transactionsView } from './panel/views/transactions.js';

const PAGE_SIZE = 50;
const LISTS = /** @type {const} */ (['transactions', 'subscriptions', 'deliveries', 'requests']);
const LIST_PATHS = { transactions: '/transactions', subscriptions: '/subscriptions', deliveries: '/deliveries', requests: '/requests' };
const VIEWS = ['transactions', 'subscriptions', 'webhooks', 'requests', 'credentials', 'scenarios'];
const ACCOUNT_KEY = 'payment-sandbox.account';

const emptyList = () => ({ items: [], pages: 1, nextCursor: null, loaded: false, error: null, unavailable: false });

const state = {
  /** @type {Array<{ name: string, mode: string, account_id: string, api_key: string, jwt_kid: string, jwt_private_key_pem: string }>} */
  accounts: [],
  webhookPublicKeyPem: null,
  /** @type {string | null} */
  accountId: null,
  /** Sandbox clock as last read: epoch ms, the performance.now() of the reading, and the offset. */
  clock: null,
  lists: { transactions: emptyList(), subscriptions: emptyList(), deliveries: emptyList(), requests: emptyList() },
  scenarios: { items: null, error: null, unavailable: false },
  /** "kind:id" of the expanded rows. */
  expanded: new Set(),
  /** id -> the action in flight on it ('settle', 'refund', ...). */
  busy: new Map(),
  /** transaction id -> { value, error } of an open refund form. */
  refundForms: new Map(),
  live: 'connecting',
};

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

// ---------------------------------------------------------------------------------------
// Loading

async function loadAccounts() {
  const creds = await call('GET', '/credentials');
  state.accounts = creds.accounts ?? [];
  state.webhookPublicKeyPem = creds.webhook_public_key_pem ?? null;
  if (!state.accounts.some((a) => a.account_id === state.accountId)) {
    const stored = localStorage.getItem(ACCOUNT_KEY);
    state.accountId = (state.accounts.find((a) => a.account_id === stored) ?? state.accounts[0])?.account_id ?? null;
  }
}

async function loadCurrencies() {
  try {
    setExponents((await call('GET', '/currencies')).exponents);
  } catch {
    setExponents({});
  }
}

async function loadClock() {
  const clock = await call('GET', '/clock');
  state.clock = { ms: Date.parse(clock.now), at: performance.now(), offset: clock.offset_seconds };
}

async function loadScenarios() {
  try {
    const body = await call('GET', '/scenarios');
    state.scenarios = { items: body.scenarios ?? [], error: null, unavailable: false };
  } catch (err) {
    state.scenarios = err instanceof ApiError && err.routeMissing ? { items: null, error: null, unavailable: true } : { items: null, error: err.message, unavailable: false };
  }
}

/** Reloads a list from its first page through as many pages as are shown. */
async function loadList(kind) {
  const list = state.lists[kind];
  const accountId = state.accountId;
  if (!accountId) return;
  const items = [];
  let cursor;
  let nextCursor = null;
  let pages = 0;
  try {
    do {
      const page = await call('GET', LIST_PATHS[kind] + query({ account_id: accountId, limit: PAGE_SIZE, cursor }));
      items.push(...page.items);
      nextCursor = page.next_cursor ?? null;
      cursor = nextCursor;
      pages += 1;
    } while (pages < list.pages && nextCursor);
    if (accountId !== state.accountId) return;
    Object.assign(list, { items, nextCursor, loaded: true, error: null, unavailable: false });
  } catch (err) {
    if (accountId !== state.accountId) return;
    if (err instanceof ApiError && err.routeMissing) Object.assign(list, { items: [], nextCursor: null, loaded: true, error: null, unavailable: true });
    else Object.assign(list, { loaded: true, error: err.message });
  }
}

const LOADERS = {
  accounts: loadAccounts,
  clock: loadClock,
  scenarios: loadScenarios,
  transactions: () => loadList('transactions'),
  subscriptions: () => loadList('subscriptions'),
  deliveries: () => loadList('deliveries'),
  requests: () => loadList('requests'),
};

const loading = new Map();

/** Loads one kind of data and re-renders; a call while one is under way runs it once more after. */
function refresh(kind) {
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

const pending = new Set();
let flushTimer = 0;

/** Marks kinds of data stale; they reload together a moment later (a burst of changes is one reload). */
function invalidate(kinds) {
  for (const kind of kinds) pending.add(kind);
  if (flushTimer) return;
  flushTimer = window.setTimeout(() => {
    flushTimer = 0;
    const kinds = [...pending];
    pending.clear();
    for (const kind of kinds) void refresh(kind);
  }, 30);
}

const allLists = () => LISTS.filter((kind) => !state.lists[kind].unavailable);

/** What each change on the feed makes stale. */
function onChange(event) {
  const type = String(event.type ?? '');
  if (type === 'sandbox.reset') {
    state.expanded.clear();
    state.refundForms.clear();
    invalidate(['clock', ...allLists()]);
    return;
  }
  if (type.startsWith('account.')) return invalidate(['accounts']);
  if (type.startsWith('clock.')) return invalidate(['clock', ...allLists()]);
  if (event.account_id && event.account_id !== state.accountId) return;
  if (type.startsWith('transaction.') || type.startsWith('refund.')) invalidate(['transactions', 'deliveries', ...(state.lists.subscriptions.unavailable ? [] : ['subscriptions'])]);
  else if (type.startsWith('subscription.')) invalidate(['subscriptions', 'transactions']);
  else if (type.startsWith('delivery.')) invalidate(['deliveries']);
  else if (type.startsWith('request.')) invalidate(['requests']);
  else invalidate(allLists());
}

// ---------------------------------------------------------------------------------------
// Notifications

function toast({ title, message, tone = 'ok', meta, details = [] }) {
  const isError = tone === 'danger';
  const close = h('button', { type: 'button', class: 'btn btn-ghost btn-icon toast-close', 'aria-label': 'Dismiss', title: 'Dismiss' }, '×');
  const el = h(
    'div',
    { class: `toast toast-${tone}`, role: isError ? 'alert' : 'status' },
    h('div', { class: 'toast-body' }, h('p', { class: 'toast-title' }, title), message ? h('p', { class: 'toast-message' }, message) : null, details.length > 0 ? h('ul', { class: 'toast-details' }, details.map((d) => h('li', null, h('span', { class: 'mono' }, d.pointer || '(body)'), ' ', d.message))) : null, meta ? h('p', { class: 'toast-meta mono' }, meta) : null),
    close,
  );
  const remove = () => el.remove();
  close.addEventListener('click', remove);
  const container = $('toasts');
  container.append(el);
  // At most three at once; the oldest success goes first.
  while (container.children.length > 3) (container.querySelector('.toast-ok') ?? container.firstElementChild)?.remove();
  if (!isError) setTimeout(remove, 3500);
}

function showError(title, err) {
  const apiError = err instanceof ApiError ? err : new ApiError(0, { message: String(err?.message ?? err) });
  toast({ title, message: apiError.message, tone: 'danger', meta: apiError.status ? `${apiError.code} · HTTP ${apiError.status}` : apiError.code, details: apiError.details });
}

// ---------------------------------------------------------------------------------------
// Actions

/**
 * Runs a control call for item `id`: the item's buttons are disabled meanwhile, a failure
 * shows the API's message (toast, or `onError`), success reloads `then` kinds.
 */
async function act(id, action, failTitle, fn, { then = [], onError, onSuccess } = {}) {
  state.busy.set(id, action);
  render();
  try {
    const result = await fn();
    onSuccess?.(result);
    return result;
  } catch (err) {
    if (onError) onError(err);
    else showError(failTitle, err);
    return undefined;
  } finally {
    state.busy.delete(id);
    invalidate(then);
    render();
  }
}

const path = (...parts) => parts.map((p) => encodeURIComponent(p)).join('/');

const ctx = {
  state,
  examples,
  deliveryState,
  nowMs,
  /** The sandbox day; list times show a date once it differs. */
  day: () => new Date(nowMs()).toDateString(),
  account: () => state.accounts.find((a) => a.account_id === state.accountId) ?? null,
  isExpanded: (kind, id) => state.expanded.has(`${kind}:${id}`),
  busyFor: (id) => state.busy.get(id) ?? null,
  refundForm: (id) => state.refundForms.get(id),

  toggle(kind, id) {
    const key = `${kind}:${id}`;
    if (state.expanded.has(key)) state.expanded.delete(key);
    else state.expanded.add(key);
    render();
  },

  loadMore(kind) {
    state.lists[kind].pages += 1;
    void refresh(kind);
  },

  settle(tx) {
    return act(tx.id, 'settle', 'Could not settle', () => call('POST', `/transactions/${path(tx.id)}/settle`), {
      then: ['transactions', 'deliveries'],
      onSuccess: () => toast({ title: `Settled ${money(tx.amount, tx.currency)}`, message: 'SUCCEEDED. The payment webhook is on its way.' }),
    });
  },

  fail(tx) {
    return act(tx.id, 'fail', 'Could not fail the transaction', () => call('POST', `/transactions/${path(tx.id)}/fail`), {
      then: ['transactions', 'deliveries'],
      onSuccess: () => toast({ title: `Failed ${money(tx.amount, tx.currency)}`, message: 'FAILED. The payment webhook is on its way.' }),
    });
  },

  openRefund(tx) {
    state.refundForms.set(tx.id, { value: toMajorPlain(tx.amount - tx.refunded_amount, tx.currency), error: null });
    render();
    const input = document.getElementById(`refund-amount-${tx.id}`);
    if (input instanceof HTMLInputElement) {
      input.focus();
      input.select();
    }
  },

  setRefundValue(id, value) {
    const form = state.refundForms.get(id);
    if (form) form.value = value;
  },

  closeRefund(id) {
    state.refundForms.delete(id);
    render();
    focusInItem(id, [`${id}:refund`, `${id}:toggle`]);
  },

  async submitRefund(tx) {
    const form = state.refundForms.get(tx.id);
    if (!form) return;
    const parsed = parseMajor(form.value, tx.currency);
    if ('error' in parsed) {
      form.error = parsed.error;
      render();
      return;
    }
    form.error = null;
    await act(tx.id, 'refund', 'Could not refund', () => call('POST', `/transactions/${path(tx.id)}/refund`, { amount: parsed.minor }), {
      then: ['transactions', 'deliveries'],
      onError: (err) => {
        const current = state.refundForms.get(tx.id);
        if (current) current.error = err instanceof ApiError ? `${err.message}${err.details[0] ? ` (${err.details[0].pointer}: ${err.details[0].message})` : ''}` : String(err);
        else showError('Could not refund', err);
      },
      onSuccess: (refund) => {
        state.refundForms.delete(tx.id);
        toast({ title: `Refunded ${money(refund.amount, refund.currency)}`, message: 'The refund webhook is on its way.' });
      },
    });
    if (!state.refundForms.has(tx.id)) focusInItem(tx.id, [`${tx.id}:refund`, `${tx.id}:toggle`]);
  },

  resend(delivery) {
    return act(delivery.id, 'resend', 'Could not resend', () => call('POST', `/deliveries/${path(delivery.id)}/resend`), {
      then: ['deliveries'],
      onSuccess: () => toast({ title: 'Resent', message: 'The same body is being sent again with a fresh timestamp and signature.' }),
    });
  },

  cancelSubscription(sub) {
    return act(sub.id, 'cancel', 'Could not cancel the subscription', () => call('POST', `/subscriptions/${path(sub.id)}/cancel`), {
      then: ['subscriptions'],
      onSuccess: () => toast({ title: 'Subscription cancelled', message: `${sub.external_identifier ?? sub.id} will not renew.` }),
    });
  },

  async createAccount(mode, name) {
    await act('accounts', 'create', 'Could not create the account', () => call('POST', '/accounts', name ? { mode, name } : { mode }), {
      then: ['accounts'],
      onSuccess: (account) => toast({ title: 'Account created', message: `${account.name} (${account.mode} mode) has fresh credentials.` }),
    });
  },

  selectAccount,

  showTransaction(id) {
    reveal('transactions', 'tx', id);
  },

  showDelivery(id) {
    reveal('webhooks', 'delivery', id);
  },
};

/** Opens a view with one item expanded, scrolled to and focused. */
function reveal(view, kind, id) {
  state.expanded.add(`${kind}:${id}`);
  if (window.location.hash !== `#${view}`) window.location.hash = `#${view}`;
  showView(view);
  render();
  const item = document.querySelector(`#view-${view} [data-item="${CSS.escape(id)}"]`);
  if (item) {
    item.scrollIntoView({ block: 'start', behavior: 'smooth' });
    item.querySelector('.toggle')?.focus({ preventScroll: true });
  }
}

/** Focuses the first of the `data-focus` keys that exists and is enabled in item `id`. */
function focusInItem(id, keys) {
  const item = document.querySelector(`[data-item="${CSS.escape(id)}"]`);
  for (const key of keys) {
    const el = item?.querySelector(`[data-focus="${CSS.escape(key)}"]`);
    if (el instanceof HTMLElement && !el.matches(':disabled')) {
      el.focus();
      return;
    }
  }
}

function selectAccount(accountId) {
  if (accountId === state.accountId) return;
  state.accountId = accountId;
  localStorage.setItem(ACCOUNT_KEY, accountId);
  for (const kind of LISTS) state.lists[kind] = emptyList();
  state.expanded.clear();
  state.refundForms.clear();
  render();
  for (const kind of LISTS) void refresh(kind);
}

// ---------------------------------------------------------------------------------------
// The clock

function nowMs() {
  return state.clock ? state.clock.ms + (performance.now() - state.clock.at) : Date.now();
}

/** Advances the sandbox clock; resolves with the API's answer, or undefined when it failed. */
function advanceClock(seconds, label) {
  return act('clock', 'advance', 'Could not advance the clock', () => call('POST', '/clock/advance', { seconds }), {
    then: ['clock', ...allLists()],
    onSuccess: (result) => toast({ title: `Clock advanced ${label}`, message: `${result.steps} due step${result.steps === 1 ? '' : 's'} ran. Sandbox time is now ${fullTime(result.now)}.` }),
  });
}

const UNIT_SECONDS = { minutes: 60, hours: 3600, days: 86400 };

function setUpClock() {
  for (const button of document.querySelectorAll('[data-advance]')) {
    button.addEventListener('click', () => {
      const which = button.getAttribute('data-advance');
      if (which === 'hour') void advanceClock(3600, 'by 1 hour');
      else if (which === 'day') void advanceClock(86400, 'by 1 day');
      else if (which === 'month') void advanceClock(secondsToNextMonth(nowMs()), 'by 1 month');
    });
  }
  const customToggle = $('clock-custom-toggle');
  const form = /** @type {HTMLFormElement} */ ($('clock-custom'));
  const amount = /** @type {HTMLInputElement} */ ($('clock-custom-amount'));
  const unit = /** @type {HTMLSelectElement} */ ($('clock-custom-unit'));
  const setOpen = (open) => {
    form.hidden = !open;
    customToggle.setAttribute('aria-expanded', String(open));
    if (open) amount.focus();
  };
  customToggle.addEventListener('click', () => setOpen(form.hidden));
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      setOpen(false);
      customToggle.focus();
    }
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const n = Number(amount.value);
    const seconds = Math.round(n * UNIT_SECONDS[unit.value]);
    if (await advanceClock(seconds, `by ${amount.value} ${unit.value}`)) {
      setOpen(false);
      customToggle.focus();
    }
  });
  setInterval(renderClock, 1000);
}

function renderClock() {
  if (!state.clock) return;
  const now = nowMs();
  const parts = clockParts(now);
  const timeEl = $('clock-now');
  setChildren(timeEl, h('span', { class: 'clock-date' }, parts.date), h('span', { class: 'clock-time' }, parts.time));
  timeEl.setAttribute('datetime', new Date(now).toISOString());
  const offset = offsetText(state.clock.offset);
  const offsetEl = $('clock-offset');
  offsetEl.textContent = offset ? `${offset} ahead` : 'real time';
  offsetEl.className = offset ? 'pill pill-ahead' : 'pill';
}

// ---------------------------------------------------------------------------------------
// Page frame: accounts, navigation, live status, reset

function setUpAccounts() {
  $('account').addEventListener('change', (event) => selectAccount(/** @type {HTMLSelectElement} */ (event.target).value));
}

function renderAccounts() {
  const select = /** @type {HTMLSelectElement} */ ($('account'));
  const signature = JSON.stringify([state.accounts.map((a) => [a.account_id, a.name, a.mode]), state.accountId]);
  if (select.dataset.signature === signature) return;
  select.dataset.signature = signature;
  setChildren(select, state.accounts.map((a) => h('option', { value: a.account_id, selected: a.account_id === state.accountId }, a.name === a.mode ? `${a.mode} mode` : `${a.name} · ${a.mode} mode`)));
  select.value = state.accountId ?? '';
  const account = ctx.account();
  $('account-id').textContent = account?.account_id ?? '';
  document.title = account ? `${account.name} · payment-sandbox` : 'payment-sandbox';
}

function currentView() {
  const name = window.location.hash.replace(/^#/, '');
  return VIEWS.includes(name) ? name : 'transactions';
}

function showView(name = currentView()) {
  for (const view of VIEWS) {
    $(`view-${view}`).hidden = view !== name;
    const link = document.querySelector(`[data-nav="${view}"]`);
    if (view === name) link?.setAttribute('aria-current', 'page');
    else link?.removeAttribute('aria-current');
  }
}

function setCount(view, text, alert) {
  const count = document.querySelector(`[data-nav="${view}"] .count`);
  if (count) count.textContent = text;
  const alertEl = document.querySelector(`[data-nav="${view}"] .count-alert`);
  if (alertEl) {
    alertEl.textContent = alert ? String(alert) : '';
    alertEl.hidden = !alert;
  }
}

function renderCounts() {
  const count = (kind) => {
    const list = state.lists[kind];
    if (!list.loaded || list.unavailable) return '';
    return `${list.items.length}${list.nextCursor ? '+' : ''}`;
  };
  const pendingCount = state.lists.transactions.items.filter((tx) => tx.status === 'PENDING').length;
  const troubled = state.lists.deliveries.items.filter((d) => ['failed', 'retrying'].includes(deliveryState(d))).length;
  const rejected = state.lists.requests.items.filter((r) => r.status >= 400).length;
  setCount('transactions', count('transactions'), pendingCount ? `${pendingCount} pending` : '');
  setCount('subscriptions', count('subscriptions'));
  setCount('webhooks', count('deliveries'), troubled ? `${troubled} failing` : '');
  setCount('requests', count('requests'), rejected ? `${rejected} 4xx/5xx` : '');
  setCount('credentials', String(state.accounts.length));
  setCount('scenarios', state.scenarios.items ? String(state.scenarios.items.length) : '');
}

function setLive(status) {
  state.live = status;
  const el = $('live');
  el.dataset.state = status;
  el.querySelector('.live-text').textContent = status === 'live' ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Reconnecting…';
  el.title = status === 'live' ? 'Following /_sandbox/events: changes appear as they happen' : 'The event stream dropped; retrying';
}

function setUpReset() {
  const dialog = /** @type {HTMLDialogElement} */ ($('reset-dialog'));
  $('reset').addEventListener('click', () => dialog.showModal());
  $('reset-keep').addEventListener('click', () => dialog.close());
  $('reset-confirm').addEventListener('click', async () => {
    dialog.close();
    await act('sandbox', 'reset', 'Could not reset', () => call('POST', '/reset'), {
      then: ['clock', ...allLists()],
      onSuccess: () => toast({ title: 'Sandbox reset', message: 'All transactions, subscriptions, webhooks and logged requests are gone; accounts and credentials are kept.' }),
    });
  });
}

// ---------------------------------------------------------------------------------------
// Rendering

const views = {
  transactions: transactionsView(ctx),
  subscriptions: subscriptionsView(ctx),
  webhooks: deliveriesView(ctx),
  requests: requestsView(ctx),
  credentials: credentialsView(ctx),
  scenarios: scenariosView(ctx),
};

/** Brings the page up to date with the state (synchronously; cheap when little changed). */
function render() {
  renderAccounts();
  renderClock();
  renderCounts();
  for (const view of Object.values(views)) view.update();
  const clockBusy = state.busy.has('clock');
  for (const button of document.querySelectorAll('[data-clock-control]')) /** @type {HTMLButtonElement} */ (button).disabled = clockBusy;
  /** @type {HTMLButtonElement} */ ($('reset')).disabled = state.busy.has('sandbox');
}

function boot() {
  for (const [name, view] of Object.entries(views)) $(`mount-${name}`).append(view.root);
  setUpAccounts();
  setUpClock();
  setUpReset();
  showView();
  window.addEventListener('hashchange', () => showView());
  render();

  let first = true;
  followEvents({
    onChange,
    onStatus(status) {
      setLive(status);
      if (status !== 'live') return;
      // A (re)connection may have missed changes: reload everything once.
      if (!first) for (const kind of LISTS) state.lists[kind].unavailable = false;
      first = false;
      invalidate(['accounts', 'clock', 'scenarios', ...LISTS]);
    },
  });

  void (async () => {
    await Promise.all([loadCurrencies(), refresh('accounts'), refresh('clock'), refresh('scenarios')]);
    for (const kind of LISTS) void refresh(kind);
  })();
}

boot();
