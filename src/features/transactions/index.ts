/** The transactions feature: what other parts of the sandbox may use of it. */
export { transactionControlRoutes } from './control/transactions.index.js';
export { controlRefundRequestSchema, controlTransactionListQuerySchema, controlTransactionSchema } from './control/transactions.schemas.js';
export type { ControlTransaction, TransactionDetail } from './control/transactions.schemas.js';
export { refundView } from './refund-format.js';
export { transactionView } from './transaction-format.js';
export { storedPaymentMethod } from './transaction-input.js';
export type { NewTransaction } from './transaction-input.js';
export { transactionsStore } from './transactions-store.js';
export { transactionRoutes } from './transactions.api.js';
export {
  refundCreateSchema,
  refundSchema,
  transactionCreateDocument,
  transactionCreateSchema,
  transactionSchema,
} from './transactions.schemas.js';
export { allowedActions } from './transaction-input.js';
export { refundableAmount } from './refunds.js';
export type { TransactionService } from './transactions.js';
export { paymentWebhookBody, refundWebhookBody } from './webhook-bodies.js';
export type { PaymentWebhookStatus } from './webhook-bodies.js';
export type { Refund } from './control/transactions.schemas.js';
export { createTransactionsFeature } from './compose.js';
export type { TransactionsFeature } from './compose.js';
export { transactionViews } from './control-views.js';
export type { TransactionViewPorts } from './control-views.js';
export type { DeclineReason, Transaction, TransactionOutcome, TransactionStatus } from './entities.js';
export type { Outbox, TransactionQueries, TransactionsRepo } from './ports.js';
export { deliveryResources } from './delivery-resources.js';
export { transactionsMigrations } from './migrations.js';
