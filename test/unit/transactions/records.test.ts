/**
 * One wire format: the API's transaction and refund records and the event-style webhook
 * bodies are built by the same functions, so a field can only change in both.
 */
import { describe, expect, it } from 'vitest';
import type { Refund } from '../../../src/features/transactions/entities.js';
import { refundView } from '../../../src/features/transactions/refund-format.js';
import { transactionRecord, transactionView } from '../../../src/features/transactions/transaction-format.js';
import { refundEventBody, transactionEventBody } from '../../../src/features/transactions/webhook-bodies.js';
import { transactionEntity } from '../../support/fakes.js';

const tx = transactionEntity({
  status: 'SUCCEEDED',
  refunded_amount: 300,
  external_identifier: 'order-7',
  subscription_id: 'sub_1',
  updated_at: 1_700_000_005_000,
});
const refund: Refund = {
  seq: 1,
  id: 'rf_1',
  account_id: 'acc_a',
  transaction_id: 'tx_1',
  amount: 300,
  currency: 'USD',
  reason: 'damaged',
  external_identifier: null,
  status: 'SUCCESS',
  created_at: 1_700_000_005_000,
  updated_at: 1_700_000_005_000,
};

describe('the shared wire-format records', () => {
  it('the API answer is the record with the payment page URL', () => {
    const checkoutPayment = { ...tx, subscription_id: null }; // a renewal, charged without the customer, has no page
    expect(transactionView(checkoutPayment, 'http://127.0.0.1:9', 'checkout')).toEqual(
      transactionRecord(checkoutPayment, 'http://127.0.0.1:9/pay/tx_1'),
    );
  });

  it("an event's transaction carries the record's fields, values and key order, then its settlement", () => {
    const body = transactionEventBody({ eventId: 'evt_1', transaction: tx, at: new Date(1_700_000_005_000) });
    const record = transactionRecord(tx, null);
    const keys = Object.keys(body.data.transaction);
    expect(keys).toEqual([
      'type',
      'id',
      'merchant_account_id',
      'status',
      'amount',
      'currency',
      'refunded_amount',
      'description',
      'external_identifier',
      'metadata',
      'payment_method',
      'subscription_id',
      'exchange_rate',
      'settlement_amount',
      'settlement_currency_code',
      'created_at',
      'updated_at',
    ]);
    for (const key of keys)
      if (key in record)
        expect(body.data.transaction[key as keyof typeof body.data.transaction]).toEqual(record[key as keyof typeof record]);
    expect(body.data.transaction).toMatchObject({ exchange_rate: '1.000000', settlement_amount: 1050, settlement_currency_code: 'USD' });
  });

  it('a refund.completed event carries the refund exactly as the API shows it', () => {
    const body = refundEventBody({ eventId: 'evt_2', transaction: tx, refund, at: new Date(1_700_000_005_000) });
    expect(JSON.stringify(body.data.refund)).toBe(JSON.stringify(refundView(refund)));
  });
});
