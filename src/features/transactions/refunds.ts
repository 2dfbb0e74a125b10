/**
 * Refunds of a SUCCEEDED transaction: part or all of what is
 * left, outcome SUCCESS at once, its webhook queued in the same unit of work.
 */
import { withoutCardNumbers } from '../../core/redaction/card-data.js';
import type { Clock } from '../../core/clock/clock.js';
import type { Refund, Transaction } from './entities.js';
import type { SimulatedFailures } from '../../core/domain/entities.js';
import { badRequest, notFound } from '../../core/domain/errors.js';
import { newId } from '../../core/domain/ids.js';
import { formatMoney } from '../../core/domain/money.js';
import type { ChangeFeed, UnitOfWork } from '../../core/domain/ports.js';
import type { Outbox, TransactionsRepo } from './ports.js';
import type { ScenarioPolicy } from '../scenarios/index.js';

export interface NewRefund {
  amount?: number;
  reason?: string;
  external_identifier?: string;
}

/** What is left to refund: the unrefunded part of a SUCCEEDED transaction, else 0. */
export function refundableAmount(tx: Pick<Transaction, 'status' | 'amount' | 'refunded_amount'>): number {
  return tx.status === 'SUCCEEDED' ? Math.max(0, tx.amount - tx.refunded_amount) : 0;
}

/** What refunds need of the transaction service's ports. */
export interface RefundDeps {
  clock: Clock;
  uow: UnitOfWork;
  transactions: TransactionsRepo;
  outbox: Outbox;
  feed: ChangeFeed;
  policy: ScenarioPolicy;
}

/**
 * `TransactionService.refund`: refunds part or all of the remainder of a SUCCEEDED transaction
 * and queues the refund webhook. 400 on any other status or more than the remainder.
 */
export function refundService(deps: RefundDeps): (transactionId: string, input: NewRefund, simulated?: SimulatedFailures) => Refund {
  const { clock, uow, transactions, outbox, feed, policy } = deps;
  return (transactionId, input, simulated) =>
    uow.run(() => {
      const current = transactions.byIdAnyAccount(transactionId);
      if (!current) throw notFound(`Transaction ${transactionId} not found`);
      if (current.status !== 'SUCCEEDED') {
        throw badRequest(`Transaction ${current.id} is ${current.status}: only a SUCCEEDED transaction can be refunded`);
      }
      const remainder = refundableAmount(current);
      const amount = input.amount ?? remainder;
      if (remainder === 0) {
        throw badRequest(`Transaction ${current.id} is already fully refunded`, [
          { type: 'value_error', pointer: '/amount', message: 'Nothing left to refund', location: 'body' },
        ]);
      }
      if (amount > remainder) {
        throw badRequest(
          `The refund of ${formatMoney(amount, current.currency)} is more than the ${formatMoney(remainder, current.currency)} left to refund`,
          [{ type: 'value_error', pointer: '/amount', message: `Must be at most ${remainder} (the remainder)`, location: 'body' }],
        );
      }
      const now = clock.nowMs();
      const row: Omit<Refund, 'seq'> = {
        id: newId(),
        account_id: current.account_id,
        transaction_id: current.id,
        amount,
        currency: current.currency,
        reason: withoutCardNumbers(input.reason ?? null),
        external_identifier: withoutCardNumbers(input.external_identifier ?? null),
        status: 'SUCCESS',
        created_at: now,
        updated_at: now,
      };
      transactions.insertRefund(row);
      transactions.addRefunded(current.id, amount, now);
      const created = transactions.refundById(row.id)!;
      outbox.refund(current, created, simulated ?? policy.simulatedFailures(current.scenario_rule));
      feed.emit('refund.created', created.account_id, { id: created.id, transaction_id: created.transaction_id });
      feed.emit('transaction.updated', created.account_id, { id: created.transaction_id });
      return created;
    });
}
