/**
 * A transaction as the control API shows it: the /v4 record extended with its refunds, the
 * refundable amount and the actions legal now (the domain's own rules), and in detail its
 * scenario rule and deliveries. Built over read-only query ports (`transactionViews(ports)`).
 */
import type { Transaction as TransactionRow } from './entities.js';
import type { AccountDirectory } from '../../core/auth/account.js';
import type { DeliveryQueries } from '../../core/domain/queries.js';
import type { TransactionQueries } from './ports.js';
import { deliveryViews } from '../webhooks/index.js';
import type { ControlTransaction, TransactionDetail } from './control.schemas.js';
import { refundView } from './refund-format.js';
import { refundableAmount } from './refunds.js';
import { allowedActions } from './transaction-input.js';
import { transactionView } from './transaction-format.js';

/** What the transaction views read: narrow query ports, and the base URL (set once the server listens). */
export interface TransactionViewPorts {
  baseUrl(): string;
  accounts: Pick<AccountDirectory, 'byId'>;
  transactions: Pick<TransactionQueries, 'refundsOf'>;
  deliveries: Pick<DeliveryQueries, 'attemptsOf' | 'forResource'>;
}

/** The control records of transaction rows. */
export interface TransactionViews {
  /** A transaction with its refunds and the actions legal now. */
  transaction(row: TransactionRow, mode: 'direct' | 'checkout'): ControlTransaction;
  /** A transaction of any account (its account's mode decides payment_url). */
  transactionOf(row: TransactionRow): ControlTransaction;
  /** A transaction with its scenario rule and deliveries. */
  transactionDetail(row: TransactionRow): TransactionDetail;
}

/** The transaction views over `ports`. */
export function transactionViews(ports: TransactionViewPorts): TransactionViews {
  const { delivery } = deliveryViews(ports);
  const transaction = (row: TransactionRow, mode: 'direct' | 'checkout'): ControlTransaction => ({
    ...transactionView(row, ports.baseUrl(), mode),
    refunds: ports.transactions.refundsOf(row.id).map(refundView),
    refundable_amount: refundableAmount(row),
    allowed_actions: allowedActions(row),
  });
  const transactionOf = (row: TransactionRow) => transaction(row, ports.accounts.byId(row.account_id)!.mode);
  return {
    transaction,
    transactionOf,
    transactionDetail: (row) => ({
      ...transactionOf(row),
      scenario_rule: row.scenario_rule,
      deliveries: ports.deliveries.forResource(row.id).map(delivery),
    }),
  };
}
