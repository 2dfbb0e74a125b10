/**
 * Transactions of the selected account, newest first: status, amount in major units,
 * merchant reference, refunded amount, and Settle / Fail / Refund enabled as the server's
 * `allowed_actions` say; the refund form starts at the server's `refundable_amount`.
 * Expanding a row shows its facts, refunds, webhooks and the full record.
 */
import { badge, h } from '../dom.js';
import { money, shortId, toMajor, fullTime } from '../format.js';
import { newPaymentForm } from './new-payment.js';
import {
  ACTIONS_COLUMN,
  TOGGLE_COLUMN,
  TONES,
  actionButton,
  actionsCell,
  copyable,
  detailColumn,
  detailGrid,
  detailRow,
  emptyState,
  fact,
  itemBody,
  listView,
  openLink,
  recordColumn,
  relatedList,
  spanRow,
  statusCell,
  timeCell,
  timeText,
  toggleCell,
} from './common.js';

/** @import { PanelContext } from '../actions.js' */
/** @import { Transaction, TransactionAction } from '../types.js' */

/** @type {import('./common.js').Column[]} */
const COLUMNS = [
  TOGGLE_COLUMN,
  { title: 'Status', className: 'col-status' },
  { title: 'Amount', className: 'col-amount' },
  { title: 'Reference', className: 'col-main' },
  { title: 'Refunded', className: 'col-refunded' },
  { title: 'Created', className: 'col-time' },
  ACTIONS_COLUMN,
];

/** Whether the server allows `action` on `tx` now. @param {Transaction} tx @param {TransactionAction} action */
const allows = (tx, action) => tx.allowed_actions.includes(action);

/** @param {PanelContext} ctx the panel's state and actions */
export function transactionsView(ctx) {
  /** The loaded deliveries of the transaction and its refunds. @param {Transaction} tx */
  function related(tx) {
    const ids = new Set([tx.id, ...tx.refunds.map((r) => r.id)]);
    return ctx.state.lists.deliveries.items.filter((d) => ids.has(d.resource_id));
  }

  /** @param {Transaction} tx */
  function signature(tx) {
    const expanded = ctx.isExpanded('tx', tx.id);
    return JSON.stringify([
      tx,
      ctx.day(),
      expanded,
      ctx.refundForm(tx.id)?.error ?? null,
      Boolean(ctx.refundForm(tx.id)),
      ctx.busyFor(tx.id),
      expanded ? related(tx).map((d) => [d.id, d.status, d.attempts_count, d.kind]) : null,
    ]);
  }

  /** @param {Transaction} tx */
  function render(tx) {
    const busy = ctx.busyFor(tx.id);
    const refId = `tx-ref-${tx.id}`;
    const fullyRefunded = tx.refunded_amount > 0 && tx.refundable_amount === 0;
    const form = ctx.refundForm(tx.id);

    const main = h(
      'tr',
      { class: `row tone-${TONES[tx.status] ?? 'neutral'}` },
      toggleCell(ctx, 'tx', tx.id, refId),
      statusCell(tx.status, TONES[tx.status] ?? 'neutral'),
      h(
        'td',
        { class: 'col-amount', 'data-label': 'Amount' },
        h('span', { class: 'amount' }, toMajor(tx.amount, tx.currency)),
        ' ',
        h('span', { class: 'currency' }, tx.currency),
      ),
      h(
        'td',
        { class: 'col-main', 'data-label': 'Reference', id: refId },
        h(
          'div',
          { class: 'primary-line' },
          tx.external_identifier
            ? h('span', { class: 'mono' }, tx.external_identifier)
            : h('span', { class: 'mono faint', title: tx.id }, shortId(tx.id)),
          tx.subscription_id ? h('span', { class: 'pill' }, 'subscription') : null,
        ),
        tx.description ? h('div', { class: 'secondary-line', title: tx.description }, tx.description) : null,
      ),
      h(
        'td',
        { class: 'col-refunded', 'data-label': 'Refunded' },
        tx.refunded_amount > 0
          ? [
              h('span', { class: 'mono' }, money(tx.refunded_amount, tx.currency)),
              fullyRefunded ? h('span', { class: 'pill' }, 'full') : null,
            ]
          : h('span', { class: 'faint' }, '—'),
      ),
      timeCell('Created', tx.created_at, ctx.nowMs()),
      actionsCell(
        actionButton('Settle', {
          tone: 'btn-ok',
          disabled: !allows(tx, 'settle') || Boolean(busy),
          busy: busy === 'settle',
          focus: `${tx.id}:settle`,
          describedBy: refId,
          onClick: () => void ctx.settle(tx),
        }),
        actionButton('Fail', {
          tone: 'btn-danger',
          disabled: !allows(tx, 'fail') || Boolean(busy),
          busy: busy === 'fail',
          focus: `${tx.id}:fail`,
          describedBy: refId,
          onClick: () => void ctx.fail(tx),
        }),
        actionButton('Refund', {
          tone: '',
          disabled: !allows(tx, 'refund') || Boolean(busy) || Boolean(form),
          busy: false,
          focus: `${tx.id}:refund`,
          describedBy: refId,
          onClick: () => ctx.openRefund(tx),
        }),
      ),
    );

    return itemBody(
      tx.id,
      main,
      form ? refundRow(tx, form, busy === 'refund') : null,
      detailRow(ctx, 'tx', tx.id, COLUMNS, () => details(tx)),
    );
  }

  /**
   * @param {Transaction} tx
   * @param {{ value: string, error: string | null }} form
   * @param {boolean} busy
   */
  function refundRow(tx, form, busy) {
    const inputId = `refund-amount-${tx.id}`;
    const errorId = `refund-error-${tx.id}`;
    const input = h('input', {
      id: inputId,
      class: 'amount-input',
      type: 'text',
      inputmode: 'decimal',
      autocomplete: 'off',
      value: form.value,
      'aria-invalid': form.error ? 'true' : null,
      'aria-describedby': form.error ? errorId : null,
      dataset: { focus: `${tx.id}:refund-amount` },
      /** @param {Event} event */
      oninput: (event) => ctx.setRefundValue(tx.id, /** @type {HTMLInputElement} */ (event.target).value),
      /** @param {KeyboardEvent} event */
      onkeydown: (event) => {
        if (event.key === 'Escape') ctx.closeRefund(tx.id);
      },
    });
    const formEl = h(
      'form',
      {
        class: 'inline-form',
        /** @param {SubmitEvent} event */
        onsubmit: (event) => {
          event.preventDefault();
          void ctx.submitRefund(tx);
        },
      },
      h('label', { for: inputId, class: 'inline-label' }, `Refund amount (${tx.currency})`),
      h('span', { class: 'input-affix' }, input, h('span', { class: 'affix' }, tx.currency)),
      h('span', { class: 'hint' }, `${money(tx.refundable_amount, tx.currency)} left to refund`),
      h(
        'button',
        {
          type: 'submit',
          class: 'btn btn-sm btn-primary',
          disabled: busy,
          'aria-busy': busy ? 'true' : null,
          dataset: { focus: `${tx.id}:refund-submit` },
        },
        'Confirm refund',
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'btn btn-sm btn-ghost',
          dataset: { focus: `${tx.id}:refund-close` },
          onclick: () => ctx.closeRefund(tx.id),
        },
        'Close',
      ),
      form.error ? h('p', { class: 'form-error', id: errorId, role: 'alert' }, form.error) : null,
    );
    return spanRow('form-row', COLUMNS, formEl);
  }

  /** @param {Transaction} tx */
  function details(tx) {
    const pm = tx.payment_method;
    const method = pm
      ? [
          pm.type,
          pm.card ? `${pm.card.brand} •••• ${pm.card.last4} · exp ${pm.card.expiration_date}` : null,
          pm.payment_channel_code ?? null,
        ]
          .filter(Boolean)
          .join(' · ')
      : null;
    const customer = tx.customer ? [tx.customer.name, tx.customer.email].filter(Boolean).join(' · ') : null;
    const deliveries = related(tx);
    return detailGrid(
      detailColumn(
        h(
          'dl',
          { class: 'facts' },
          fact('Transaction', copyable(tx.id, 'transaction id')),
          fact('Reference', tx.external_identifier ? h('span', { class: 'mono break' }, tx.external_identifier) : null),
          fact('Description', tx.description),
          fact('Customer', customer),
          fact('Payment method', method),
          fact(
            'Payment page',
            tx.payment_url
              ? h('a', { href: tx.payment_url, target: '_blank', rel: 'noopener', class: 'mono break' }, tx.payment_url)
              : null,
          ),
          fact('Return URL', tx.return_url ? h('span', { class: 'mono break' }, tx.return_url) : null),
          fact('Cancel URL', tx.cancel_url ? h('span', { class: 'mono break' }, tx.cancel_url) : null),
          fact(
            'Webhook URL',
            h(
              'span',
              { class: tx.notification_url ? 'mono break' : 'faint' },
              tx.notification_url ?? 'sandbox default (--notification-url)',
            ),
          ),
          fact('Subscription', tx.subscription_id ? h('span', { class: 'mono break' }, tx.subscription_id) : null),
          fact(
            'Metadata',
            tx.metadata && Object.keys(tx.metadata).length > 0
              ? h(
                  'span',
                  { class: 'mono break' },
                  Object.entries(tx.metadata)
                    .map(([k, v]) => `${k}=${v}`)
                    .join(', '),
                )
              : null,
          ),
          fact('Created', fullTime(tx.created_at)),
          fact('Updated', fullTime(tx.updated_at)),
        ),
        relatedList({
          title: 'Refunds',
          items: tx.refunds,
          none: allows(tx, 'refund') ? 'None yet. Refund sends the refund webhook.' : 'None.',
          line: (r) => [
            badge(r.status, 'ok'),
            h('span', { class: 'mono' }, money(r.amount, r.currency)),
            r.reason ? h('span', { class: 'muted' }, r.reason) : null,
            timeText(r.created_at, ctx.nowMs()),
          ],
        }),
        faultButtons(tx),
        relatedList({
          title: 'Webhooks',
          items: deliveries,
          none: tx.status === 'PENDING' ? 'The payment webhook is sent when the transaction gets its outcome.' : 'None loaded.',
          line: (d) => [
            badge(d.state, TONES[d.state] ?? 'neutral'),
            h('span', null, `${d.kind} webhook`),
            h('span', { class: 'faint' }, `${d.attempts_count} attempt${d.attempts_count === 1 ? '' : 's'}`),
            openLink('#webhooks', () => ctx.showDelivery(d.id)),
          ],
        }),
      ),
      recordColumn(tx, 'transaction'),
    );
  }

  /**
   * Buttons that script a webhook fault on the transaction (duplicate, delayed, bad signature,
   * out of order), once it has a webhook; out of order needs a refund.
   * @param {Transaction} tx
   */
  function faultButtons(tx) {
    const busy = ctx.busyFor(tx.id);
    const hasWebhook = tx.status !== 'PENDING';
    /** @type {[import('../types.js').WebhookFault, string, boolean][]} */
    const faults = [
      ['duplicate', 'Duplicate', hasWebhook],
      ['delayed', 'Delay 60 s', hasWebhook],
      ['bad_signature', 'Bad signature', hasWebhook],
      ['out_of_order', 'Refund before payment', hasWebhook && tx.refunds.length > 0],
    ];
    return [
      h('h3', { class: 'detail-title' }, 'Webhook faults'),
      h(
        'p',
        { class: 'fault-actions' },
        faults.map(([fault, label, enabled]) =>
          actionButton(label, {
            disabled: !enabled || Boolean(busy),
            busy: busy === `fault:${fault}`,
            focus: `${tx.id}:fault-${fault}`,
            describedBy: `tx-ref-${tx.id}`,
            onClick: () => void ctx.webhookFault(tx, fault),
          }),
        ),
      ),
      hasWebhook ? null : h('p', { class: 'muted small' }, 'Available once the transaction has its outcome (and its webhook).'),
    ];
  }

  const list = listView(ctx, {
    list: 'transactions',
    label: 'Transactions',
    className: 'tx-list',
    columns: COLUMNS,
    key: (tx) => tx.id,
    signature,
    render,
    emptyContent: () => {
      const account = ctx.account();
      return emptyState({
        title: 'No transactions yet',
        text: account
          ? [
              `Create one for the ${account.name} account (${account.mode} mode) and it appears here at once. Settle or Fail it to send the payment webhook.`,
            ]
          : 'Choose an account.',
        command: account ? ctx.examples.createTransaction(account) : undefined,
        commandLabel: 'curl command that creates a transaction',
      });
    },
  });
  const form = newPaymentForm(ctx);
  return {
    root: h('div', { class: 'stack' }, form.root, list.root),
    update() {
      form.update();
      list.update();
    },
  };
}
