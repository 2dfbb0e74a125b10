/**
 * Subscriptions of the selected account: status, plan, current period, next billing date
 * and their charges (one transaction per billing period), with Cancel where it is legal.
 */
import { badge, h } from '../dom.js';
import { fullTime, money, shortDate } from '../format.js';
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
  statusCell,
  timeText,
  toggleCell,
} from './common.js';

/** @import { PanelContext } from '../actions.js' */
/** @import { Subscription, Transaction } from '../types.js' */

/** @type {import('./common.js').Column[]} */
const COLUMNS = [
  TOGGLE_COLUMN,
  { title: 'Status', className: 'col-status' },
  { title: 'Reference', className: 'col-main' },
  { title: 'Plan', className: 'col-plan' },
  { title: 'Current period', className: 'col-period' },
  { title: 'Next billing', className: 'col-date' },
  { title: 'Charges', className: 'col-count' },
  ACTIONS_COLUMN,
];

/** "9.99 USD / month", "30.00 USD / 3 months". @param {Subscription['plan']} plan */
export function planText(plan) {
  const every = plan.interval_time > 1 ? `${plan.interval_time} ${plan.interval}s` : plan.interval;
  return `${money(plan.amount, plan.currency)} / ${every}`;
}

/** @param {PanelContext} ctx the panel's state and actions */
export function subscriptionsView(ctx) {
  /** @param {Subscription} sub */
  const signature = (sub) => JSON.stringify([sub, ctx.day(), ctx.isExpanded('sub', sub.id), ctx.busyFor(sub.id)]);

  /** @param {Subscription} sub */
  function render(sub) {
    const busy = ctx.busyFor(sub.id);
    const refId = `sub-ref-${sub.id}`;
    const charges = sub.charges;
    const email = sub.customer.email_address;
    const main = h(
      'tr',
      { class: `row tone-${TONES[sub.status] ?? 'neutral'}` },
      toggleCell(ctx, 'sub', sub.id, refId),
      statusCell(sub.status, TONES[sub.status] ?? 'neutral'),
      h(
        'td',
        { class: 'col-main', 'data-label': 'Reference', id: refId },
        h('div', { class: 'primary-line' }, h('span', { class: 'mono' }, sub.external_identifier)),
        email ? h('div', { class: 'secondary-line' }, email) : null,
      ),
      h(
        'td',
        { class: 'col-plan', 'data-label': 'Plan' },
        h('div', { class: 'primary-line' }, sub.plan.name),
        h('div', { class: 'secondary-line mono' }, planText(sub.plan)),
      ),
      h(
        'td',
        {
          class: 'col-period',
          'data-label': 'Current period',
          title: `${fullTime(sub.current_period_start)} → ${fullTime(sub.current_period_end)}`,
        },
        `${shortDate(sub.current_period_start)} → ${shortDate(sub.current_period_end)}`,
      ),
      h(
        'td',
        { class: 'col-date', 'data-label': 'Next billing' },
        sub.next_charge_at === null
          ? h('span', { class: 'faint' }, '—')
          : h('span', { class: 'next-billing' }, shortDate(sub.next_billing_date)),
      ),
      h('td', { class: 'col-count', 'data-label': 'Charges' }, h('span', { class: 'charge-count' }, String(charges.length))),
      actionsCell(
        actionButton('Cancel', {
          tone: 'btn-danger',
          disabled: !sub.allowed_actions.includes('cancel') || Boolean(busy),
          busy: Boolean(busy),
          focus: `${sub.id}:cancel`,
          describedBy: refId,
          onClick: () => void ctx.cancelSubscription(sub),
        }),
      ),
    );
    return itemBody(
      sub.id,
      main,
      detailRow(ctx, 'sub', sub.id, COLUMNS, () => details(sub, charges)),
    );
  }

  /** @param {Subscription} sub @param {Transaction[]} charges */
  function details(sub, charges) {
    const { charges: _omit, ...record } = sub;
    return detailGrid(
      detailColumn(
        h(
          'dl',
          { class: 'facts' },
          fact('Subscription', copyable(sub.id, 'subscription id')),
          fact('Customer', [sub.customer.display_name, sub.customer.email_address].filter(Boolean).join(' · ')),
          fact('First period', money(sub.amount, sub.currency)),
          fact('Plan', `${sub.plan.name} · ${planText(sub.plan)}`),
          fact('Payment attempts', `${sub.plan.payment_attempts} per renewal`),
          fact('Trial', sub.trial_end ? `until ${fullTime(sub.trial_end)}` : null),
          fact('Current period', `${fullTime(sub.current_period_start)} → ${fullTime(sub.current_period_end)}`),
          fact('Next billing', sub.next_billing_date),
          fact('Next charge', sub.next_charge_at === null ? 'none: it will not be charged again' : fullTime(sub.next_charge_at)),
          fact(
            'Payment page',
            sub.payment_url_link
              ? h('a', { href: sub.payment_url_link, target: '_blank', rel: 'noopener', class: 'mono break' }, sub.payment_url_link)
              : null,
          ),
        ),
        relatedList({
          title: 'Charges',
          items: charges,
          none: 'No charges yet.',
          className: 'mini-list charges',
          line: (tx) => [
            badge(tx.status, TONES[tx.status] ?? 'neutral'),
            h('span', { class: 'mono' }, money(tx.amount, tx.currency)),
            timeText(tx.created_at, ctx.nowMs()),
            openLink('#transactions', () => ctx.showTransaction(tx.id)),
          ],
        }),
      ),
      recordColumn(record, 'subscription'),
    );
  }

  return listView(ctx, {
    list: 'subscriptions',
    label: 'Subscriptions',
    className: 'sub-list',
    columns: COLUMNS,
    key: (sub) => sub.id,
    signature,
    render,
    emptyContent: () => {
      const account = ctx.account();
      return emptyState({
        title: 'No subscriptions yet',
        text: account
          ? `Create one for the ${account.name} account; each billing period is charged as a transaction. Advance the clock to see renewals.`
          : 'Choose an account.',
        command: account ? ctx.examples.createSubscription(account) : undefined,
        commandLabel: 'curl command that creates a subscription',
      });
    },
  });
}
