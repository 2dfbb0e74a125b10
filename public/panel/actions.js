/**
 * What the views can do: the panel's actions (settle, fail, refund, resend, cancel, create
 * an account, advance the clock, switch account) as control calls, and the screen actions
 * (expand a row, load older items, open an item in another view). A control call disables
 * the item's buttons while it runs, shows the API's message when it fails, and reloads
 * what it changed. Which actions are legal, and how much is refundable, comes from the
 * server's records (`allowed_actions`, `refundable_amount`).
 */
import { ApiError, call } from './api.js';
import { examples } from './examples.js';
import { fullTime, money, parseMajor, toMajorPlain } from './format.js';
import { invalidate, refresh, storeAccountId } from './loading.js';
import { LISTS, emptyLists, nowMs, render, selectedAccount, state } from './state.js';
import { showError, toast } from './toasts.js';

/** @import { Account, ClockAdvanced, Delivery, ListName, Refund, Subscription, Transaction, ViewName, WebhookCheckReport, WebhookFault } from './types.js' */

/** What each scripted webhook fault does, for its toast. @type {Record<WebhookFault, string>} */
const FAULT_EFFECTS = {
  duplicate: 'The payment webhook is sent once more, same body and signature.',
  delayed: 'The payment webhook is sent once more in 60 s of sandbox time (advance the clock to send it now).',
  bad_signature: 'The payment webhook is sent once more with a signature that does not match its body. Your handler should refuse it.',
  out_of_order: "The latest refund's webhook is sent again, then the payment's, in that order.",
};
/** @typedef {import('./loading.js').Kind} Kind */

/**
 * Runs a control call for item `id`: the item's buttons are disabled meanwhile, a failure
 * shows the API's message (toast, or `onError`), and the `then` kinds reload afterwards.
 * @template T
 * @param {string} id
 * @param {string} action
 * @param {string} failTitle
 * @param {() => Promise<T>} fn
 * @param {{ then?: readonly Kind[], onError?: (err: unknown) => void, onSuccess?: (result: T) => void }} [options]
 * @returns {Promise<T | undefined>}
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

/** A path segment. @param {string} part */
const seg = (part) => encodeURIComponent(part);

/**
 * Focuses the first of the `data-focus` keys that exists and is enabled in item `id`.
 * @param {string} id
 * @param {string[]} keys
 */
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

/** @type {(name: ViewName) => void} */
let showView = () => {};

/** Installs how a view is shown (panel.js owns navigation). @param {(name: ViewName) => void} fn */
export function setViewShower(fn) {
  showView = fn;
}

/**
 * Opens a view with one item expanded, scrolled to and focused.
 * @param {ViewName} view
 * @param {string} kind
 * @param {string} id
 */
function reveal(view, kind, id) {
  state.expanded.add(`${kind}:${id}`);
  if (window.location.hash !== `#${view}`) window.location.hash = `#${view}`;
  showView(view);
  render();
  const item = document.querySelector(`#view-${view} [data-item="${CSS.escape(id)}"]`);
  if (item) {
    item.scrollIntoView({ block: 'start', behavior: 'smooth' });
    const toggle = item.querySelector('.toggle');
    if (toggle instanceof HTMLElement) toggle.focus({ preventScroll: true });
  }
}

/**
 * Shows another account's data.
 * @param {string} accountId
 */
export function selectAccount(accountId) {
  if (accountId === state.accountId) return;
  state.accountId = accountId;
  storeAccountId(accountId);
  state.lists = emptyLists();
  state.expanded.clear();
  state.refundForms.clear();
  state.report = { data: null, error: null };
  render();
  for (const kind of LISTS) void refresh(kind);
  void refresh('report');
  void refresh('clock'); // each account has its own clock
}

/**
 * Advances the selected account's own clock (the sandbox clock when none is selected); resolves
 * with the API's answer, or undefined when it failed.
 * @param {{ seconds: number } | { months: number }} by
 * @param {string} label "by 1 hour"
 */
export function advanceClock(by, label) {
  const accountId = state.accountId;
  const path = accountId ? `/accounts/${encodeURIComponent(accountId)}/clock/advance` : '/clock/advance';
  return act('clock', 'advance', 'Could not advance the clock', () => /** @type {Promise<ClockAdvanced>} */ (call('POST', path, by)), {
    then: ['clock', ...LISTS],
    onSuccess: (result) =>
      toast({
        title: `Clock advanced ${label}`,
        message: `${result.steps} due step${result.steps === 1 ? '' : 's'} ran. ${accountId ? 'This account' : 'Sandbox'} time is now ${fullTime(result.now)}.`,
      }),
  });
}

/** Empties the sandbox (accounts stay). */
export function resetSandbox() {
  return act('sandbox', 'reset', 'Could not reset', () => call('POST', '/reset'), {
    then: ['clock', ...LISTS],
    onSuccess: () =>
      toast({
        title: 'Sandbox reset',
        message: 'All transactions, subscriptions, webhooks and logged requests are gone; accounts and credentials are kept.',
      }),
  });
}

/** The panel's state and actions, as the views use them. */
export const ctx = {
  state,
  examples,
  nowMs,
  /** The sandbox day; list times show a date once it differs. */
  day: () => new Date(nowMs()).toDateString(),
  account: selectedAccount,
  /** @param {string} kind @param {string | number} id */
  isExpanded: (kind, id) => state.expanded.has(`${kind}:${id}`),
  /** @param {string} id */
  busyFor: (id) => state.busy.get(id) ?? null,
  /** @param {string} id */
  refundForm: (id) => state.refundForms.get(id),

  /** @param {string} kind @param {string | number} id */
  toggle(kind, id) {
    const key = `${kind}:${id}`;
    if (state.expanded.has(key)) state.expanded.delete(key);
    else state.expanded.add(key);
    render();
  },

  /** @param {ListName} kind */
  loadMore(kind) {
    state.lists[kind].pages += 1;
    void refresh(kind);
  },

  /** @param {Transaction} tx */
  settle(tx) {
    return act(tx.id, 'settle', 'Could not settle', () => call('POST', `/transactions/${seg(tx.id)}/settle`), {
      then: ['transactions', 'deliveries'],
      onSuccess: () =>
        toast({ title: `Settled ${money(tx.amount, tx.currency)}`, message: 'SUCCEEDED. The payment webhook is on its way.' }),
    });
  },

  /** @param {Transaction} tx */
  fail(tx) {
    return act(tx.id, 'fail', 'Could not fail the transaction', () => call('POST', `/transactions/${seg(tx.id)}/fail`), {
      then: ['transactions', 'deliveries'],
      onSuccess: () => toast({ title: `Failed ${money(tx.amount, tx.currency)}`, message: 'FAILED. The payment webhook is on its way.' }),
    });
  },

  /**
   * Scripts a webhook fault on a transaction (control API `webhook-faults`); `delayed` waits 60 s of sandbox time.
   * @param {Transaction} tx
   * @param {WebhookFault} fault
   */
  webhookFault(tx, fault) {
    const body = fault === 'delayed' ? { fault, seconds: 60 } : { fault };
    return act(
      tx.id,
      `fault:${fault}`,
      'Could not script the webhook fault',
      () => call('POST', `/transactions/${seg(tx.id)}/webhook-faults`, body),
      {
        then: ['transactions', 'deliveries'],
        onSuccess: () => toast({ title: `Webhook fault: ${fault.replace('_', ' ')}`, message: FAULT_EFFECTS[fault] }),
      },
    );
  },

  /**
   * Runs the check-webhooks battery against a merchant URL from the sandbox, with the state check
   * when `stateUrl` is given and the orders the shop created when `orders` names some; rejects
   * with an ApiError.
   * @param {string} url
   * @param {string} [stateUrl]
   * @param {string[]} [orders]
   * @returns {Promise<WebhookCheckReport>}
   */
  checkWebhooks: (url, stateUrl, orders) =>
    /** @type {Promise<WebhookCheckReport>} */ (
      call('POST', '/check-webhooks', {
        url,
        ...(stateUrl ? { state_url: stateUrl } : {}),
        ...(orders && orders.length > 0 ? { orders } : {}),
      })
    ),

  /** Opens the refund form with the server's refundable amount. @param {Transaction} tx */
  openRefund(tx) {
    state.refundForms.set(tx.id, { value: toMajorPlain(tx.refundable_amount, tx.currency), error: null });
    render();
    const input = document.getElementById(`refund-amount-${tx.id}`);
    if (input instanceof HTMLInputElement) {
      input.focus();
      input.select();
    }
  },

  /** @param {string} id @param {string} value */
  setRefundValue(id, value) {
    const form = state.refundForms.get(id);
    if (form) form.value = value;
  },

  /** @param {string} id */
  closeRefund(id) {
    state.refundForms.delete(id);
    render();
    focusInItem(id, [`${id}:refund`, `${id}:toggle`]);
  },

  /** @param {Transaction} tx */
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
    await act(
      tx.id,
      'refund',
      'Could not refund',
      () => /** @type {Promise<Refund>} */ (call('POST', `/transactions/${seg(tx.id)}/refund`, { amount: parsed.minor })),
      {
        then: ['transactions', 'deliveries'],
        onError: (err) => {
          const current = state.refundForms.get(tx.id);
          if (!current) return showError('Could not refund', err);
          const detail = err instanceof ApiError ? err.details[0] : undefined;
          current.error =
            err instanceof ApiError ? `${err.message}${detail ? ` (${detail.pointer}: ${detail.message})` : ''}` : String(err);
        },
        onSuccess: (refund) => {
          state.refundForms.delete(tx.id);
          toast({ title: `Refunded ${money(refund.amount, refund.currency)}`, message: 'The refund webhook is on its way.' });
        },
      },
    );
    if (!state.refundForms.has(tx.id)) focusInItem(tx.id, [`${tx.id}:refund`, `${tx.id}:toggle`]);
  },

  /** @param {Pick<Delivery, 'id'>} delivery */
  resend(delivery) {
    return act(delivery.id, 'resend', 'Could not resend', () => call('POST', `/deliveries/${seg(delivery.id)}/resend`), {
      then: ['deliveries'],
      onSuccess: () => toast({ title: 'Resent', message: 'The same body is being sent again with a fresh timestamp and signature.' }),
    });
  },

  /** @param {Subscription} sub */
  cancelSubscription(sub) {
    return act(sub.id, 'cancel', 'Could not cancel the subscription', () => call('POST', `/subscriptions/${seg(sub.id)}/cancel`), {
      then: ['subscriptions'],
      onSuccess: () => toast({ title: 'Subscription cancelled', message: `${sub.external_identifier} will not renew.` }),
    });
  },

  /** @param {'direct' | 'checkout'} mode @param {string | undefined} name */
  async createAccount(mode, name) {
    await act(
      'accounts',
      'create',
      'Could not create the account',
      () => /** @type {Promise<Account>} */ (call('POST', '/accounts', name ? { mode, name } : { mode })),
      {
        then: ['accounts'],
        onSuccess: (account) =>
          toast({ title: 'Account created', message: `${account.name} (${account.mode} mode) has fresh credentials.` }),
      },
    );
  },

  selectAccount,

  /** @param {string} id */
  showTransaction(id) {
    reveal('transactions', 'tx', id);
  },

  /** @param {string} id */
  showDelivery(id) {
    reveal('webhooks', 'delivery', id);
  },

  /** Opens a logged request (its id in the request log). @param {string | number} id */
  showRequest(id) {
    reveal('requests', 'request', String(id));
  },
};

/** @typedef {typeof ctx} PanelContext */
