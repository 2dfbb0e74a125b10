/**
 * The transaction and refund state machine. A transaction is PENDING
 * until its outcome, then SUCCEEDED or FAILED, terminal; refunds add up on a SUCCEEDED one.
 * Every transition is one unit of work that also queues its webhook in the outbox; the
 * change feed hears of it after the commit. What a scenario rule scripts for a new
 * transaction is asked of the scenario policy and carried out here (`play`): an outcome at
 * once, or a step stored for the scenario runner to apply when the sandbox clock reaches it.
 *
 * The customer's step: a payment of a
 * checkout account, or a direct-mode payment with a QR, wallet or banking-app channel, waits
 * for the customer on the payment page; it gets `link_expires_at` (24 h of sandbox clock),
 * and `linkExpiry`, a `TimedWork`, sets it FAILED (with its webhook) when nobody paid by
 * then. A PromptPay or Pix payment carries its EMVCo QR payload in `payment_method.qr_payload`.
 * A card whose expiry is before the sandbox clock's month is declined at creation: the
 * transaction is created FAILED with `decline_reason` `expired_card`, and its webhook queued.
 */
import { isCardExpired } from '../payment-methods/index.js';
import { withoutCardNumbers } from '../../core/redaction/card-data.js';
import type { Clock } from '../../core/clock/clock.js';
import { awaitsCustomer, linkExpiredWhilePending } from '../payment-methods/index.js';
import { paymentLinkExpiresAt } from '../payment-methods/index.js';
import type { TimedWork } from '../../core/clock/timed-work.js';
import type { AccountIdentity } from '../../core/auth/account.js';
import type { SimulatedFailures } from '../../core/domain/entities.js';
import type { DeclineReason, Refund, Transaction, TransactionOutcome } from './entities.js';
import { SandboxError, invalidState, notFound } from '../../core/domain/errors.js';
import { newId } from '../../core/domain/ids.js';
import type { ChangeFeed, UnitOfWork } from '../../core/domain/ports.js';
import type { ChargeScript, ScenarioPolicy, ScheduledStepsRepo } from '../scenarios/index.js';
import type { Outbox, TransactionsRepo } from './ports.js';
import { type NewRefund, refundService } from './refunds.js';
import {
  type ChargeContext,
  type NewTransaction,
  cardOnFileExpired,
  paymentMethodOf,
  storedPaymentMethod,
  transactionMatchInput,
} from './transaction-input.js';

/** At most this many payment links expire in one step of an advance (or tick); the rest stay due for the next. */
export const LINK_EXPIRY_BATCH = 25;

export interface TransactionServiceDeps {
  clock: Clock;
  uow: UnitOfWork;
  transactions: TransactionsRepo;
  scheduledSteps: ScheduledStepsRepo;
  outbox: Outbox;
  feed: ChangeFeed;
  policy: ScenarioPolicy;
}

export interface TransactionService {
  /**
   * Creates a PENDING transaction and plays what a scenario rule scripts for it (not for a
   * subscription's charge: billing plays its own script). The request has passed its
   * account's schema (mode rules included) in the HTTP layer.
   */
  create(account: AccountIdentity, input: NewTransaction, charge?: ChargeContext): Transaction;
  /**
   * Sets the outcome of a PENDING transaction and queues its payment webhook (with the
   * simulated failures its scenario rule asks for, unless `simulated` is given). 409
   * `invalid_state` (nothing changed, nothing sent) when it already has one.
   */
  resolve(id: string, outcome: TransactionOutcome, simulated?: SimulatedFailures): Transaction;
  /**
   * Refunds part or all of the remainder of a SUCCEEDED transaction (outcome SUCCESS) and
   * queues the refund webhook. 400 on any other status or more than the remainder.
   */
  refund(transactionId: string, input: NewRefund, simulated?: SimulatedFailures): Refund;
  /**
   * Carries out a script for a PENDING transaction: the outcome now (`afterSeconds` 0) or as
   * a scheduled step, and each refund `afterSeconds` after the outcome's instant (at once
   * when both delays are 0; a refund the transaction cannot take is dropped).
   */
  play(tx: Transaction, script: ChargeScript): void;
  /**
   * The customer pays a PENDING transaction with a card on the payment page: an expired card
   * is declined (FAILED); otherwise the first scenario rule matching the card (and the rest of
   * the payment) plays out as it would for a card sent to the API; without a rule it is approved.
   */
  payWithCard(id: string, card: { number: string; expiration_date: string; holder_name?: string }): Transaction;
  /**
   * A PENDING payment whose link has expired (24 h of sandbox clock after its creation) becomes
   * FAILED, its webhook queued; answers the transaction as it is now. Losing a race with
   * another outcome is fine: the answer then shows what won. The payment page asks it on every
   * visit; `linkExpiry` asks it for each link the clock has passed. 404 for an unknown id.
   */
  expireLinkIfDue(id: string, nowMs?: number): Transaction;
  /** Records the scenario rule (`scenario/rule`) that decides a transaction: a subscription's charge is decided by its subscription's rule. */
  setScenarioRule(id: string, rule: string): void;
  /** Registers a listener told of every outcome inside its unit of work (subscription billing). */
  onResolved(listener: (tx: Transaction) => void): void;
  /** Sets FAILED (with its webhook) every PENDING payment whose link expired, on the sandbox clock. */
  linkExpiry: TimedWork;
}

export function createTransactionService(deps: TransactionServiceDeps): TransactionService {
  const { clock, uow, transactions, scheduledSteps, outbox, feed, policy } = deps;
  const resolvedListeners: ((tx: Transaction) => void)[] = [];

  /** An outcome is stamped, and its webhook timed, on the transaction's account's clock, whoever sets it (the panel, a step). */
  const resolve = (id: string, outcome: TransactionOutcome, simulated?: SimulatedFailures): Transaction => {
    const found = transactions.byIdAnyAccount(id);
    if (!found) throw notFound(`Transaction ${id} not found`);
    return clock.inAccount(found.account_id, () => resolveOnClock(id, outcome, simulated));
  };
  const resolveOnClock = (id: string, outcome: TransactionOutcome, simulated?: SimulatedFailures): Transaction =>
    uow.run(() => {
      const tx = transactions.byIdAnyAccount(id);
      if (!tx) throw notFound(`Transaction ${id} not found`);
      if (tx.status !== 'PENDING') {
        throw invalidState(`Transaction ${id} is already ${tx.status}; an outcome is final and cannot change to ${outcome}`);
      }
      transactions.setStatus(id, outcome, clock.nowMs());
      const updated = transactions.byIdAnyAccount(id)!;
      // A scenario's webhook_failures hold for an outcome set by hand too.
      outbox.paymentOutcome(updated, simulated ?? policy.simulatedFailures(updated.scenario_rule));
      feed.emit('transaction.updated', updated.account_id, { id: updated.id, status: updated.status });
      for (const listener of resolvedListeners) listener(updated);
      return updated;
    });

  /**
   * A new transaction whose scenario rule decides its outcome at once: stored once, in its
   * final state (what the create, the rule and the outcome each wrote before), and its webhook
   * queued from the row in hand, stamped on its account's clock as `resolve` stamps it. The
   * change feed hears of the create, then of the outcome, as for any other transaction.
   */
  const createResolved = (
    row: Omit<Transaction, 'seq'>,
    rule: string,
    outcome: TransactionOutcome,
    simulated: SimulatedFailures | undefined,
  ): Transaction =>
    clock.inAccount(row.account_id, () => {
      const at = clock.nowMs();
      const stored = { ...row, scenario_rule: rule, status: outcome, updated_at: at, resolved_at: at };
      const tx: Transaction = { ...stored, seq: transactions.insert(stored) };
      feed.emit('transaction.created', tx.account_id, { id: tx.id });
      outbox.paymentOutcome(tx, simulated ?? policy.simulatedFailures(rule));
      feed.emit('transaction.updated', tx.account_id, { id: tx.id, status: tx.status });
      for (const listener of resolvedListeners) listener(tx);
      return tx;
    });

  const refundOnClock = refundService({ clock, uow, transactions, outbox, feed, policy });
  /** A refund is stamped, and its webhook timed, on the transaction's account's clock, whoever asks (the API, the panel, a step). */
  const refund: typeof refundOnClock = (transactionId, input, simulated) => {
    const found = transactions.byIdAnyAccount(transactionId);
    return found
      ? clock.inAccount(found.account_id, () => refundOnClock(transactionId, input, simulated))
      : refundOnClock(transactionId, input, simulated);
  };

  const expireLinkIfDue = (id: string, nowMs = clock.nowMs()): Transaction => {
    const tx = transactions.byIdAnyAccount(id);
    if (!tx) throw notFound(`Transaction ${id} not found`);
    if (!linkExpiredWhilePending(tx, nowMs)) return tx;
    try {
      return resolve(tx.id, 'FAILED');
    } catch (err) {
      if (!(err instanceof SandboxError) || err.status !== 409) throw err;
      return transactions.byIdAnyAccount(tx.id)!;
    }
  };

  const play = (tx: Transaction, script: ChargeScript): void => {
    if (script.outcome === null) return;
    const outcomeAt = clock.nowMs() + script.afterSeconds * 1000;
    const immediate = script.afterSeconds === 0;
    uow.run(() => {
      if (immediate) resolve(tx.id, script.outcome!, script.webhookFailures);
      else {
        scheduledSteps.insert({
          account_id: tx.account_id,
          due_at: outcomeAt,
          resource_id: tx.id,
          action: { kind: 'outcome', outcome: script.outcome!, webhook_failures: script.webhookFailures },
        });
      }
      for (const scripted of script.refunds) {
        const action = {
          kind: 'refund' as const,
          amount: scripted.amount,
          reason: scripted.reason,
          webhook_failures: script.webhookFailures,
        };
        if (immediate && scripted.afterSeconds === 0) {
          try {
            uow.run(() => refund(tx.id, { amount: action.amount, reason: action.reason }, action.webhook_failures));
          } catch (err) {
            // A refund the transaction cannot take (e.g. more than its amount) is dropped,
            // never failing the create it belongs to.
            if (!(err instanceof SandboxError)) throw err;
          }
        } else {
          scheduledSteps.insert({
            account_id: tx.account_id,
            due_at: outcomeAt + scripted.afterSeconds * 1000,
            resource_id: tx.id,
            action,
          });
        }
      }
    });
  };

  return {
    create(account, input, charge = {}) {
      const now = clock.nowMs();
      const direct = account.mode === 'direct';
      const id = newId();
      const paymentMethod = paymentMethodOf(account, input, charge, id);
      const waits =
        charge.subscriptionId === undefined
          ? awaitsCustomer(account.mode, paymentMethod?.payment_channel_code)
          : charge.awaitCustomer === true;
      const expiredCard = (direct || charge.paymentMethodOnFile?.card !== undefined) && cardOnFileExpired(paymentMethod, now);
      const declined: DeclineReason | null = charge.declineReason ?? (expiredCard ? 'expired_card' : null);
      const row: Omit<Transaction, 'seq'> = {
        id,
        account_id: account.id,
        status: 'PENDING',
        amount: input.amount,
        currency: input.currency,
        // Free text is kept without card numbers (masked), as everything that shows or sends it.
        description: withoutCardNumbers(input.description ?? null),
        customer: withoutCardNumbers(input.customer ?? null),
        return_url: input.return_url ?? null,
        cancel_url: input.cancel_url ?? null,
        external_identifier: withoutCardNumbers(input.external_identifier ?? null),
        notification_url: input.notification_url ?? charge.notificationUrl ?? null,
        metadata: withoutCardNumbers(input.metadata ?? null),
        payment_method: paymentMethod,
        browser_info: direct ? withoutCardNumbers(input.browser_info ?? null) : null,
        refunded_amount: 0,
        subscription_id: charge.subscriptionId ?? null,
        scenario_rule: null,
        decline_reason: null,
        link_expires_at: waits && declined === null ? paymentLinkExpiresAt(now) : null,
        created_at: now,
        updated_at: now,
        resolved_at: null,
      };
      // Part of the unit of work of the request when one is open (its idempotency record and
      // log entry commit with it): no savepoint of its own, as nothing catches its failure.
      return uow.join(() => {
        const decided =
          declined === null && charge.subscriptionId === undefined
            ? policy.forTransaction(charge.match ?? transactionMatchInput(input))
            : null;
        const script = decided?.script;
        if (decided && script && script.outcome !== null && script.afterSeconds === 0 && script.refunds.length === 0) {
          return createResolved(row, decided.rule, script.outcome, script.webhookFailures);
        }
        const seq = transactions.insert(row);
        feed.emit('transaction.created', account.id, { id: row.id });
        if (declined !== null) {
          // Declined before any scenario rule is asked: the card is past its expiry month, or
          // there is no payment method to charge.
          transactions.setDeclineReason(row.id, declined);
          return resolve(row.id, 'FAILED');
        }
        if (decided) {
          transactions.setScenarioRule(row.id, decided.rule);
          play(transactions.byIdAnyAccount(row.id)!, decided.script);
          return transactions.byIdAnyAccount(row.id)!;
        }
        return { ...row, seq }; // stored as it is: no need to read it back
      });
    },
    resolve,
    refund,
    play,
    payWithCard(id, card) {
      return uow.run(() => {
        const tx = transactions.byIdAnyAccount(id);
        if (!tx) throw notFound(`Transaction ${id} not found`);
        // The record (and its webhook in the event format) shows the card the customer paid with, masked.
        const channelCode = tx.payment_method?.payment_channel_code;
        transactions.setPaymentMethod(
          id,
          storedPaymentMethod({
            type: 'card',
            number: card.number,
            expiration_date: card.expiration_date,
            ...(card.holder_name ? { holder_name: card.holder_name } : {}),
            ...(channelCode !== undefined ? { payment_channel_code: channelCode } : {}),
          }),
        );
        if (isCardExpired(card.expiration_date, clock.nowMs())) {
          transactions.setDeclineReason(id, 'expired_card');
          return resolve(id, 'FAILED');
        }
        const decided = policy.forTransaction({
          kind: 'transaction',
          amount: tx.amount,
          currency: tx.currency,
          cardNumber: card.number,
          customerEmail: tx.customer?.email ?? null,
          metadata: tx.metadata,
          paymentChannelCode: tx.payment_method?.payment_channel_code ?? null,
          plan: null,
        });
        if (decided && decided.script.outcome !== null) {
          transactions.setScenarioRule(id, decided.rule);
          play(tx, decided.script);
          return transactions.byIdAnyAccount(id)!;
        }
        return resolve(id, 'SUCCEEDED', decided?.script.webhookFailures);
      });
    },
    expireLinkIfDue,
    setScenarioRule: (id, rule) => transactions.setScenarioRule(id, rule),
    onResolved(listener) {
      resolvedListeners.push(listener);
    },
    linkExpiry: {
      name: 'payment link expiry',
      nextDueMs: () => transactions.nextLinkExpiry(),
      async runDue(nowMs) {
        // A bounded batch per step, as subscription billing: the rest stay due for the next step.
        for (const tx of transactions.linksExpiredAt(nowMs).slice(0, LINK_EXPIRY_BATCH)) {
          try {
            // On the account's clock: `nowMs` moved by how far that clock is ahead of the one it was read on.
            const outer = clock.nowMs();
            clock.inAccount(tx.account_id, () => expireLinkIfDue(tx.id, nowMs + (clock.nowMs() - outer)));
          } catch (err) {
            // Never leave an expiry due that cannot run: the clock would stop at it forever.
            transactions.clearLinkExpiry(tx.id);
            if (!(err instanceof SandboxError)) throw err;
          }
        }
      },
    },
  };
}
