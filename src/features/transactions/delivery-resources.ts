/** The dispatcher's question about the resources of payment and refund webhooks, answered from the transactions' storage. */
import type { DeliveryResources } from '../../core/webhooks/ordering.js';
import type { TransactionsRepo } from './ports.js';

export function deliveryResources(transactions: Pick<TransactionsRepo, 'refundById' | 'refundsOf'>): DeliveryResources {
  return {
    paymentOf: (refundId) => transactions.refundById(refundId)?.transaction_id,
    refundsOf: (paymentId) => transactions.refundsOf(paymentId).map((refund) => refund.id),
  };
}
