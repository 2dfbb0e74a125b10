/**
 * The payment page router alone, mounted with fakes of its ports (no sandbox, no database, no
 * socket): what it reads, the domain commands it calls, and the answers the customer sees.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../../../src/features/transactions/entities.js';
import { PAYMENT_LINK_TTL_MS } from '../../../src/features/payment-methods/payment-methods.js';
import { paymentPageRoutes, type PaymentPageDeps } from '../../../src/features/payment-page/index.js';
import {
  accountEntity,
  fakeAccounts,
  fakeScheduledSteps,
  fakeSubscriptions,
  fakeTransactions,
  transactionEntity,
} from '../../support/fakes.js';

const account = accountEntity;

/** The router under /pay with fake ports; `calls` records each command it gave. */
function mount(rows: Transaction[], expireIfDue: (tx: Transaction) => Transaction = (tx) => tx) {
  const transactions = fakeTransactions();
  transactions.rows.push(...rows);
  const calls: string[] = [];
  const deps: PaymentPageDeps = {
    transactions,
    subscriptions: fakeSubscriptions(),
    accounts: fakeAccounts(account('acc_checkout', 'checkout'), account('acc_direct', 'direct')),
    scheduledSteps: fakeScheduledSteps(),
    payments: {
      resolve(id, outcome) {
        calls.push(`resolve ${id} ${outcome}`);
        const tx = transactions.rows.find((t) => t.id === id)!;
        Object.assign(tx, { status: outcome, resolved_at: tx.created_at + 1000 });
        return { ...tx };
      },
      payWithCard(id) {
        calls.push(`payWithCard ${id}`);
        return transactions.byIdAnyAccount(id)!;
      },
      expireLinkIfDue(id) {
        calls.push(`expireLinkIfDue ${id}`);
        return expireIfDue(transactions.byIdAnyAccount(id)!);
      },
    },
    trials: {
      registerPaymentMethod: () => {
        throw new Error('no trial here');
      },
    },
    scenarios: {
      describe: () => [
        { rules: [{ name: 'declined', description: 'Card 4000 0000 0000 0002: declined', match: { card_number: '4000000000000002' } }] },
      ],
    },
    customerCancelled: (accountId) => void calls.push(`customerCancelled ${accountId}`),
  };
  const app = new Hono();
  app.route('/pay', paymentPageRoutes(deps));
  return { app, calls };
}

const checkoutPayment = (overrides: Partial<Transaction> = {}): Transaction =>
  transactionEntity({
    id: 'tx_c',
    account_id: 'acc_checkout',
    description: 'Order <b>7</b>',
    cancel_url: 'https://shop.example/cancelled',
    ...overrides,
  });

describe('payment page router with fake ports', () => {
  it('shows the card form of a checkout payment, with the test cards of the loaded scenarios, after asking the domain about the link', async () => {
    const { app, calls } = mount([checkoutPayment()]);
    const res = await app.request('/pay/tx_c');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await res.text();
    expect(page).toContain('action="/pay/tx_c/pay"');
    expect(page).toContain('Order &lt;b&gt;7&lt;/b&gt;');
    expect(page).toContain('<span class="mono">4000 0000 0000 0002</span> declined');
    expect(calls).toEqual(['expireLinkIfDue tx_c']);
  });

  it('Cancel fails the payment through the domain, tells the go-live report, and sends the customer to cancel_url', async () => {
    const { app, calls } = mount([checkoutPayment()]);
    const res = await app.request('/pay/tx_c/cancel', { method: 'POST' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://shop.example/cancelled');
    expect(calls).toEqual(['expireLinkIfDue tx_c', 'resolve tx_c FAILED', 'customerCancelled acc_checkout']);
  });

  it('a link the domain has expired: the page says so, and Pay is 410 with no command given', async () => {
    const expire = (tx: Transaction): Transaction => ({ ...tx, status: 'FAILED', resolved_at: tx.created_at + PAYMENT_LINK_TTL_MS });
    const { app, calls } = mount([checkoutPayment()], expire);
    const page = await app.request('/pay/tx_c');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('expired');
    const pay = await app.request('/pay/tx_c/pay', { method: 'POST' });
    expect(pay.status).toBe(410);
    expect(calls).toEqual(['expireLinkIfDue tx_c', 'expireLinkIfDue tx_c']);
  });

  it('a finished payment: a POST to it is 409 and sets no outcome', async () => {
    const { app, calls } = mount([checkoutPayment({ status: 'SUCCEEDED', resolved_at: 1_700_000_001_000 })]);
    expect((await app.request('/pay/tx_c/pay', { method: 'POST' })).status).toBe(409);
    expect(calls).toEqual(['expireLinkIfDue tx_c']);
  });

  it('an unknown id and a direct-mode card payment have no page (404)', async () => {
    const { app, calls } = mount([transactionEntity({ id: 'tx_d', account_id: 'acc_direct' })]);
    const unknown = await app.request('/pay/nope');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('There is no transaction with this id');
    const direct = await app.request('/pay/tx_d');
    expect(direct.status).toBe(404);
    expect(await direct.text()).toContain('direct-integration account');
    expect(calls).toEqual([]);
  });
});
