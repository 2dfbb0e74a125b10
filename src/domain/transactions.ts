/**
 * The transaction and refund state machine (contract: Resources). A transaction is PENDING
 * until its outcome, then SUCCEEDED or FAILED, terminal; refunds add up on a SUCCEEDED one.
 * Every transition is one database transaction that also queues its webhook in the outbox.
 */
import { randomUUID } from 'node:crypto';
import type { Sandbox } from '../sandbox.js';
import type { AccountRow } from '../store/accounts.js';
import type { RefundRow, TransactionRow, TransactionStatus } from '../store/transactions.js';
import { enqueuePaymentWebhook, enqueueRefundWebhook, type SimulatedFailures } from '../webhooks/outbox.js';
import { cardBrand, cardLast4 } from './card.js';
import { badRequest, invalidState, notFound, type ErrorDetail } from './errors.js';
import { formatMoney } from './money.js';

/** A payment method as the request carries it (card fields in direct mode). */
export interface PaymentMethodInput {
  type: string;
  payment_channel_code?: string;
  number?: string;
  expiration_date?: string;
  security_code?: string;
  holder_name?: string;
}

/** What is stored and echoed of a payment method: never the full number or the security code. */
export interface StoredPaymentMethod {
  type: string;
  payment_channel_code?: string;
  card?: { last4: string; expiration_date: string; brand: string; holder_name?: string };
}

export interface NewTransaction {
  amount: number;
  currency: string;
  description?: string;
  customer?: { email?: string; name?: string };
  return_url?: string;
  cancel_url?: string;
  external_identifier?: string;
  notification_url?: string;
  metadata?: Record<string, string>;
  payment_method?: PaymentMethodInput;
  browser_info?: Record<string, unknown>;
}

/** Called inside the creating database transaction, e.g. by the scenario engine. */
export type TransactionCreatedHook = (tx: TransactionRow, input: NewTransaction) => void;
/** Called inside the resolving database transaction, e.g. by subscription billing. */
export type TransactionResolvedHook = (tx: TransactionRow) => void;

/** Masks a request payment method for storage. */
export function storedPaymentMethod(pm: PaymentMethodInput): StoredPaymentMethod {
  const out: StoredPaymentMethod = { type: pm.type };
  if (pm.payment_channel_code !== undefined) out.payment_channel_code = pm.payment_channel_code;
  if (pm.number !== undefined) {
    out.card = { last4: cardLast4(pm.number), expiration_date: pm.expiration_date ?? '', brand: cardBrand(pm.number) };
    if (pm.holder_name !== undefined) out.card.holder_name = pm.holder_name;
  }
  return out;
}

/**
 * The mode rules of the contract: direct mode sends the card and browser_info; checkout needs
 * return_url. A charge with a payment method on file (a subscription's) sends no card again.
 */
export function modeRequirements(account: AccountRow, input: NewTransaction, onFile = false): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const missing = (pointer: string, message: string): void => void details.push({ type: 'missing', pointer, message, location: 'body' });
  if (account.mode === 'direct') {
    if (onFile) {
      // The card was checked when it was put on file.
    } else if (!input.payment_method) missing('/payment_method', 'Required in direct API mode (card data or a wallet/QR method)');
    else if (input.payment_method.type === 'card') {
      for (const f of ['number', 'expiration_date', 'security_code'] as const) {
        if (!input.payment_method[f]) missing(`/payment_method/${f}`, `Required for a card in direct API mode`);
      }
    } else if (!input.payment_method.payment_channel_code) {
      missing('/payment_method/payment_channel_code', `Required for payment method type ${input.payment_method.type}`);
    }
    if (!input.browser_info) missing('/browser_info', 'Required in direct API mode (anti-fraud checks)');
  } else if (!input.return_url) {
    missing('/return_url', 'Required in checkout mode: the payment page sends the customer back there');
  }
  return details;
}

/**
 * Creates a PENDING transaction (and whatever a scenario schedules for it) in one database
 * transaction. 400 with details when the account's mode rules are not met.
 */
export function createTransaction(
  sandbox: Sandbox,
  account: AccountRow,
  input: NewTransaction,
  extra: { subscriptionId?: string; notificationUrl?: string; paymentMethodOnFile?: StoredPaymentMethod } = {},
): TransactionRow {
  const details = modeRequirements(account, input, extra.paymentMethodOnFile !== undefined);
  if (details.length > 0) throw badRequest('Request failed validation', details);
  const now = sandbox.clock.nowMs();
  const row: TransactionRow = {
    seq: 0,
    id: randomUUID(),
    account_id: account.id,
    status: 'PENDING',
    amount: input.amount,
    currency: input.currency,
    description: input.description ?? null,
    customer: input.customer ? JSON.stringify(input.customer) : null,
    return_url: input.return_url ?? null,
    cancel_url: input.cancel_url ?? null,
    external_identifier: input.external_identifier ?? null,
    notification_url: input.notification_url ?? extra.notificationUrl ?? null,
    metadata: input.metadata ? JSON.stringify(input.metadata) : null,
    payment_method:
      account.mode !== 'direct'
        ? null
        : extra.paymentMethodOnFile
          ? JSON.stringify(extra.paymentMethodOnFile)
          : input.payment_method
            ? JSON.stringify(storedPaymentMethod(input.payment_method))
            : null,
    browser_info: account.mode === 'direct' && input.browser_info ? JSON.stringify(input.browser_info) : null,
    refunded_amount: 0,
    subscription_id: extra.subscriptionId ?? null,
    scenario_rule: null,
    created_at: now,
    updated_at: now,
    resolved_at: null,
  };
  sandbox.db.transaction(() => {
    sandbox.stores.transactions.insert(row);
    for (const hook of sandbox.hooks.transactionCreated) hook(row, input);
  })();
  const created = sandbox.stores.transactions.byIdAnyAccount(row.id)!;
  sandbox.emit('transaction.created', created.account_id, { id: created.id });
  return created;
}

/**
 * Sets the outcome of a PENDING transaction and queues its payment webhook. 409
 * `invalid_state` (nothing changed, nothing sent) when it already has one.
 */
export function resolveTransaction(
  sandbox: Sandbox,
  id: string,
  outcome: Exclude<TransactionStatus, 'PENDING'>,
  simulated?: SimulatedFailures,
): TransactionRow {
  const resolved = sandbox.db.transaction(() => {
    const tx = sandbox.stores.transactions.byIdAnyAccount(id);
    if (!tx) throw notFound(`Transaction ${id} not found`);
    if (tx.status !== 'PENDING') {
      throw invalidState(`Transaction ${id} is already ${tx.status}; an outcome is final and cannot change to ${outcome}`);
    }
    const now = sandbox.clock.nowMs();
    sandbox.stores.transactions.setStatus(id, outcome, now);
    const updated = sandbox.stores.transactions.byIdAnyAccount(id)!;
    // A scenario's webhook_failures hold for an outcome set by hand too.
    enqueuePaymentWebhook(sandbox, updated, simulated ?? sandbox.scenarios.simulatedFailuresFor(updated));
    for (const hook of sandbox.hooks.transactionResolved) hook(updated);
    return updated;
  })();
  sandbox.emit('transaction.updated', resolved.account_id, { id: resolved.id, status: resolved.status });
  sandbox.kickDeliveries();
  return resolved;
}

export interface NewRefund {
  amount?: number;
  reason?: string;
  external_identifier?: string;
}

/**
 * Refunds part or all of the remainder of a SUCCEEDED transaction (outcome SUCCESS) and
 * queues the refund webhook. 400 on any other status or more than the remainder.
 */
export function refundTransaction(sandbox: Sandbox, tx: TransactionRow, input: NewRefund, simulated?: SimulatedFailures): RefundRow {
  const refund = sandbox.db.transaction(() => {
    const current = sandbox.stores.transactions.byIdAnyAccount(tx.id)!;
    if (current.status !== 'SUCCEEDED') {
      throw badRequest(`Transaction ${tx.id} is ${current.status}: only a SUCCEEDED transaction can be refunded`);
    }
    const remainder = current.amount - current.refunded_amount;
    const amount = input.amount ?? remainder;
    if (remainder === 0) {
      throw badRequest(`Transaction ${tx.id} is already fully refunded`, [
        { type: 'value_error', pointer: '/amount', message: 'Nothing left to refund', location: 'body' },
      ]);
    }
    if (amount > remainder) {
      throw badRequest(`The refund of ${formatMoney(amount, current.currency)} is more than the ${formatMoney(remainder, current.currency)} left to refund`, [
        { type: 'value_error', pointer: '/amount', message: `Must be at most ${remainder} (the remainder)`, location: 'body' },
      ]);
    }
    const now = sandbox.clock.nowMs();
    const row: RefundRow = {
      seq: 0,
      id: randomUUID(),
      account_id: current.account_id,
      transaction_id: current.id,
      amount,
      currency: current.currency,
      reason: input.reason ?? null,
      external_identifier: input.external_identifier ?? null,
      status: 'SUCCESS',
      created_at: now,
      updated_at: now,
    };
    sandbox.stores.transactions.insertRefund(row);
    sandbox.stores.transactions.addRefunded(current.id, amount, now);
    enqueueRefundWebhook(sandbox, current, row, simulated ?? sandbox.scenarios.simulatedFailuresFor(current));
    return sandbox.stores.transactions.refundById(row.id)!;
  })();
  sandbox.emit('refund.created', refund.account_id, { id: refund.id, transaction_id: refund.transaction_id });
  sandbox.emit('transaction.updated', refund.account_id, { id: refund.transaction_id });
  sandbox.kickDeliveries();
  return refund;
}
