/**
 * Transactions of the selected account, newest first: status, amount in major units,
 * merchant reference, refunded amount, and Settle / Fail / Refund where the API allows them.
 * Expanding a row shows its facts, refunds, webhooks and the full record.
 */
import { badge, copyButton, h, jsonView, reconcile } from '../dom.js';
import { money, shortId, shortTime, toMajor, fullTime } from '../format.js';
import { TONES, copyable, emptyState, fact, listShell, showListState, toggleButton } from './common.js';

const COLUMNS = [
  { title: 'Details', className: 'col-toggle', hidden: true },
  { title: 'Status', className: 'col-status' },
  { title: 'Amount', className: 'col-amount' },
  { title: 'Reference', className: 'col-main' },
  { title: 'Refunded', className: 'col-refunded' },
  { title: 'Created', className: 'col-time' },
  { title: 'Actions', className: 'col-actions', hidden: true },
];

export const canSettle = (tx) => tx.status === 'PENDING';
export const canRefund = (tx) => tx.status === 'SUCCEEDED' && tx.refunded_amount < tx.amount;

/** @param {object} ctx the panel's state and actions (panel.js) */
export function transactionsView(ctx) {
  const shell = listShell({ label: 'Transactions', className: 'tx-list', columns: COLUMNS, onMore: () => ctx.loadMore('transactions') });

  function related(tx) {
    const ids = new Set([tx.id, ...(tx.refunds ?? []).map((r) => r.id)]);
    return ctx.state.lists.deliveries.items.filter((d) => ids.has(d.resource_id));
  }

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

  function render(tx) {
    const expanded = ctx.isExpanded('tx', tx.id);
    const busy = ctx.busyFor(tx.id);
    const detailId = `tx-detail-${tx.id}`;
    const refId = `tx-ref-${tx.id}`;
    const fullyRefunded = tx.refunded_amount > 0 && tx.refunded_amount >= tx.amount;
    const form = ctx.refundForm(tx.id);

    const main = h(
      'tr',
      { class: `row tone-${TONES[tx.status] ?? 'neutral'}` },
      h('td', { class: 'col-toggle' }, toggleButton({ expanded, controls: detailId, focus: `${tx.id}:toggle`, describedBy: refId, onToggle: () => ctx.toggle('tx', tx.id) })),
      h('td', { class: 'col-status', 'data-label': 'Status' }, badge(tx.status, TONES[tx.status] ?? 'neutral')),
      h('td', { class: 'col-amount', 'data-label': 'Amount' }, h('span', { class: 'amount' }, toMajor(tx.amount, tx.currency)), ' ', h('span', { class: 'currency' }, tx.currency)),
      h(
        'td',
        { class: 'col-main', 'data-label': 'Reference', id: refId },
        h('div', { class: 'primary-line' }, tx.external_identifier ? h('span', { class: 'mono' }, tx.external_identifier) : h('span', { class: 'mono faint', title: tx.id }, shortId(tx.id)), tx.subscription_id ? h('span', { class: 'pill' }, 'subscription') : null),
        tx.description ? h('div', { class: 'secondary-line', title: tx.description }, tx.description) : null,
      ),
      h(
        'td',
        { class: 'col-refunded', 'data-label': 'Refunded' },
        tx.refunded_amount > 0 ? [h('span', { class: 'mono' }, money(tx.refunded_amount, tx.currency)), fullyRefunded ? h('span', { class: 'pill' }, 'full') : null] : h('span', { class: 'faint' }, '—'),
      ),
      h('td', { class: 'col-time', 'data-label': 'Created', title: fullTime(tx.created_at) }, shortTime(tx.created_at, ctx.nowMs())),
      h(
        'td',
        { class: 'col-actions' },
        h(
          'div',
          { class: 'actions' },
          actionButton('Settle', 'btn-ok', !canSettle(tx) || Boolean(busy), busy === 'settle', `${tx.id}:settle`, refId, () => ctx.settle(tx)),
          actionButton('Fail', 'btn-danger', !canSettle(tx) || Boolean(busy), busy === 'fail', `${tx.id}:fail`, refId, () => ctx.fail(tx)),
          actionButton('Refund', '', !canRefund(tx) || Boolean(busy) || Boolean(form), false, `${tx.id}:refund`, refId, () => ctx.openRefund(tx)),
        ),
      ),
    );

    const rows = [main];
    if (form) rows.push(refundRow(tx, form, busy === 'refund'));
    if (expanded) rows.push(h('tr', { class: 'detail-row' }, h('td', { colspan: String(COLUMNS.length), id: detailId }, details(tx))));
    return h('tbody', { class: 'item', dataset: { item: tx.id } }, rows);
  }

  function actionButton(label, className, disabled, busy, focus, describedBy, onClick) {
    return h(
      'button',
      { type: 'button', class: `btn btn-sm ${className}`, disabled, 'aria-busy': busy ? 'true' : null, 'aria-describedby': describedBy, dataset: { focus }, onclick: onClick },
      label,
    );
  }

  function refundRow(tx, form, busy) {
    const remainder = tx.amount - tx.refunded_amount;
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
      oninput: (event) => ctx.setRefundValue(tx.id, event.target.value),
      onkeydown: (event) => {
        if (event.key === 'Escape') ctx.closeRefund(tx.id);
      },
    });
    const formEl = h(
      'form',
      {
        class: 'inline-form',
        onsubmit: (event) => {
          event.preventDefault();
          ctx.submitRefund(tx);
        },
      },
      h('label', { for: inputId, class: 'inline-label' }, `Refund amount (${tx.currency})`),
      h('span', { class: 'input-affix' }, input, h('span', { class: 'affix' }, tx.currency)),
      h('span', { class: 'hint' }, `${money(remainder, tx.currency)} left to refund`),
      h('button', { type: 'submit', class: 'btn btn-sm btn-primary', disabled: busy, 'aria-busy': busy ? 'true' : null, dataset: { focus: `${tx.id}:refund-submit` } }, 'Confirm refund'),
      h('button', { type: 'button', class: 'btn btn-sm btn-ghost', dataset: { focus: `${tx.id}:refund-close` }, onclick: () => ctx.closeRefund(tx.id) }, 'Close'),
      form.error ? h('p', { class: 'form-error', id: errorId, role: 'alert' }, form.error) : null,
    );
    return h('tr', { class: 'form-row' }, h('td', { colspan: String(COLUMNS.length) }, formEl));
  }

  function details(tx) {
    const pm = tx.payment_method;
    const method = pm ? [pm.type, pm.card ? `${pm.card.brand} •••• ${pm.card.last4} · exp ${pm.card.expiration_date}` : null, pm.payment_channel_code ?? null].filter(Boolean).join(' · ') : null;
    const customer = tx.customer ? [tx.customer.name, tx.customer.email].filter(Boolean).join(' · ') : null;
    const deliveries = related(tx);
    return h(
      'div',
      { class: 'detail-grid' },
      h(
        'div',
        { class: 'detail-col' },
        h(
          'dl',
          { class: 'facts' },
          fact('Transaction', copyable(tx.id, 'transaction id')),
          fact('Reference', tx.external_identifier ? h('span', { class: 'mono break' }, tx.external_identifier) : null),
          fact('Description', tx.description),
          fact('Customer', customer),
          fact('Payment method', method),
          fact('Payment page', tx.payment_url ? h('a', { href: tx.payment_url, target: '_blank', rel: 'noopener', class: 'mono break' }, tx.payment_url) : null),
          fact('Return URL', tx.return_url ? h('span', { class: 'mono break' }, tx.return_url) : null),
          fact('Cancel URL', tx.cancel_url ? h('span', { class: 'mono break' }, tx.cancel_url) : null),
          fact('Webhook URL', h('span', { class: tx.notification_url ? 'mono break' : 'faint' }, tx.notification_url ?? 'sandbox default (--notification-url)')),
          fact('Subscription', tx.subscription_id ? h('span', { class: 'mono break' }, tx.subscription_id) : null),
          fact('Metadata', tx.metadata && Object.keys(tx.metadata).length > 0 ? h('span', { class: 'mono break' }, Object.entries(tx.metadata).map(([k, v]) => `${k}=${v}`).join(', ')) : null),
          fact('Created', fullTime(tx.created_at)),
          fact('Updated', fullTime(tx.updated_at)),
        ),
        h('h3', { class: 'detail-title' }, `Refunds (${(tx.refunds ?? []).length})`),
        (tx.refunds ?? []).length === 0
          ? h('p', { class: 'muted small' }, canRefund(tx) ? 'None yet. Refund sends the refund webhook.' : 'None.')
          : h('ul', { class: 'mini-list' }, tx.refunds.map((r) => h('li', null, badge(r.status, 'ok'), h('span', { class: 'mono' }, money(r.amount, r.currency)), r.reason ? h('span', { class: 'muted' }, r.reason) : null, h('span', { class: 'faint', title: fullTime(r.created_at) }, shortTime(r.created_at, ctx.nowMs()))))),
        h('h3', { class: 'detail-title' }, `Webhooks (${deliveries.length})`),
        deliveries.length === 0
          ? h('p', { class: 'muted small' }, tx.status === 'PENDING' ? 'The payment webhook is sent when the transaction gets its outcome.' : 'None loaded.')
          : h(
              'ul',
              { class: 'mini-list' },
              deliveries.map((d) =>
                h(
                  'li',
                  null,
                  badge(ctx.deliveryState(d), TONES[ctx.deliveryState(d)] ?? 'neutral'),
                  h('span', null, `${d.kind} webhook`),
                  h('span', { class: 'faint' }, `${d.attempts_count} attempt${d.attempts_count === 1 ? '' : 's'}`),
                  h('a', { href: '#webhooks', onclick: (event) => { event.preventDefault(); ctx.showDelivery(d.id); } }, 'Open'),
                ),
              ),
            ),
      ),
      h('div', { class: 'detail-col' }, h('div', { class: 'code-head' }, h('h3', { class: 'detail-title' }, 'Record'), copyButton(() => JSON.stringify(tx, null, 2), 'transaction JSON')), jsonView(tx, { label: 'Transaction record' })),
    );
  }

  return {
    root: shell.root,
    update() {
      const list = ctx.state.lists.transactions;
      reconcile(shell.table, list.items, { key: (tx) => tx.id, signature, render, after: shell.head });
      showListState(shell, {
        count: list.items.length,
        hasMore: Boolean(list.nextCursor),
        loading: !list.loaded,
        error: list.error,
        emptyContent: () => {
          const account = ctx.account();
          return emptyState({
            title: 'No transactions yet',
            text: account
              ? [`Create one for the ${account.name} account (${account.mode} mode) and it appears here at once. Settle or Fail it to send the payment webhook.`]
              : 'Choose an account.',
            command: account ? ctx.examples.createTransaction(account) : undefined,
            commandLabel: 'curl command that creates a transaction',
          });
        },
      });
    },
  };
}
