import { describe, expect, it } from 'vitest';
import type { Refund, Transaction } from '../../../src/features/transactions/entities.js';
import {
  paymentWebhookBody,
  refundEventBody,
  refundWebhookBody,
  transactionEventBody,
} from '../../../src/features/transactions/webhook-bodies.js';

// 2026-11-21 23:30:05 in Shanghai is 15:30:05 UTC; the account date is the Shanghai date.
const AT = new Date('2026-11-21T15:30:05Z');

describe('paymentWebhookBody', () => {
  it('builds a SUCCEEDED USD body with major-unit decimal amounts', () => {
    const body = paymentWebhookBody({
      llTransactionId: 'txn_123',
      merchantTransactionId: 'order-1',
      amount: 1050,
      currency: 'USD',
      status: 'SUCCEEDED',
      at: AT,
      timeZone: 'Asia/Shanghai',
    });
    expect(body).toEqual({
      ll_transaction_id: 'txn_123',
      merchant_transaction_id: 'order-1',
      payment_data: {
        account_date: '20261121',
        exchange_rate: '1.000000',
        payment_amount: '10.50',
        payment_currency_code: 'USD',
        payment_status: 'SUCCEEDED',
        payment_time: '20261121233005',
        settlement_amount: '10.50',
        settlement_currency_code: 'USD',
      },
    });
  });

  it('builds a FAILED JPY body without decimals', () => {
    const body = paymentWebhookBody({
      llTransactionId: 'txn_jpy',
      merchantTransactionId: 'order-jpy',
      amount: 500,
      currency: 'JPY',
      status: 'FAILED',
      at: AT,
      timeZone: 'UTC',
    });
    expect(body).toEqual({
      ll_transaction_id: 'txn_jpy',
      merchant_transaction_id: 'order-jpy',
      payment_data: {
        account_date: '20261121',
        exchange_rate: '1.000000',
        payment_amount: '500',
        payment_currency_code: 'JPY',
        payment_status: 'FAILED',
        payment_time: '20261121153005',
        settlement_amount: '500',
        settlement_currency_code: 'JPY',
      },
    });
  });

  it('builds a SUCCEEDED BHD body with three decimals, dated in the zone', () => {
    const body = paymentWebhookBody({
      llTransactionId: 'txn_bhd',
      merchantTransactionId: 'order-bhd',
      amount: 1050,
      currency: 'BHD',
      status: 'SUCCEEDED',
      at: new Date('2026-11-22T02:00:00Z'),
      timeZone: 'America/New_York',
    });
    expect(body).toEqual({
      ll_transaction_id: 'txn_bhd',
      merchant_transaction_id: 'order-bhd',
      payment_data: {
        account_date: '20261121',
        exchange_rate: '1.000000',
        payment_amount: '1.050',
        payment_currency_code: 'BHD',
        payment_status: 'SUCCEEDED',
        payment_time: '20261121210000',
        settlement_amount: '1.050',
        settlement_currency_code: 'BHD',
      },
    });
  });

  it('keeps the spec key order on the wire', () => {
    const body = paymentWebhookBody({
      llTransactionId: 't',
      merchantTransactionId: 'm',
      amount: 5,
      currency: 'USD',
      status: 'FAILED',
      at: AT,
      timeZone: 'UTC',
    });
    expect(Object.keys(body)).toEqual(['ll_transaction_id', 'merchant_transaction_id', 'payment_data']);
    expect(Object.keys(body.payment_data)).toEqual([
      'account_date',
      'exchange_rate',
      'payment_amount',
      'payment_currency_code',
      'payment_status',
      'payment_time',
      'settlement_amount',
      'settlement_currency_code',
    ]);
    expect(JSON.stringify(body)).toBe(
      '{"ll_transaction_id":"t","merchant_transaction_id":"m","payment_data":{"account_date":"20261121",' +
        '"exchange_rate":"1.000000","payment_amount":"0.05","payment_currency_code":"USD",' +
        '"payment_status":"FAILED","payment_time":"20261121153005","settlement_amount":"0.05",' +
        '"settlement_currency_code":"USD"}}',
    );
  });

  it('rejects unknown currencies, fractional and negative amounts', () => {
    const base = {
      llTransactionId: 't',
      merchantTransactionId: 'm',
      status: 'SUCCEEDED' as const,
      at: AT,
      timeZone: 'UTC',
    };
    expect(() => paymentWebhookBody({ ...base, amount: 100, currency: 'XYZ' })).toThrow(RangeError);
    expect(() => paymentWebhookBody({ ...base, amount: 10.5, currency: 'USD' })).toThrow(RangeError);
    expect(() => paymentWebhookBody({ ...base, amount: -1, currency: 'USD' })).toThrow(RangeError);
  });
});

describe('refundWebhookBody', () => {
  it('builds a refund body with integer minor-unit amounts', () => {
    const body = refundWebhookBody({
      llTransactionId: 'ref_1',
      merchantTransactionId: 'refund-order-1',
      originalTransactionId: 'order-1',
      amount: 1050,
      currency: 'USD',
      reason: 'customer request',
      at: AT,
      timeZone: 'Asia/Shanghai',
    });
    expect(body).toEqual({
      ll_transaction_id: 'ref_1',
      merchant_transaction_id: 'refund-order-1',
      original_transaction_id: 'order-1',
      refund_data: {
        account_date: '20261121',
        actual_refund_amount: 1050,
        actual_refund_currency_code: 'USD',
        reason: 'customer request',
        refund_amount: 1050,
        refund_currency_code: 'USD',
        refund_status: 'SUCCESS',
        refund_time: '20261121233005',
        settlement_currency_code: 'USD',
      },
    });
    expect(Number.isInteger(body.refund_data.refund_amount)).toBe(true);
    expect(Number.isInteger(body.refund_data.actual_refund_amount)).toBe(true);
  });

  it('keeps minor units as integers in zero- and three-decimal currencies', () => {
    const jpy = refundWebhookBody({
      llTransactionId: 'ref_jpy',
      merchantTransactionId: 'ref_jpy',
      originalTransactionId: 'order-jpy',
      amount: 500,
      currency: 'JPY',
      reason: '',
      at: AT,
      timeZone: 'UTC',
    });
    expect(jpy.refund_data).toEqual({
      account_date: '20261121',
      actual_refund_amount: 500,
      actual_refund_currency_code: 'JPY',
      reason: '',
      refund_amount: 500,
      refund_currency_code: 'JPY',
      refund_status: 'SUCCESS',
      refund_time: '20261121153005',
      settlement_currency_code: 'JPY',
    });
    const bhd = refundWebhookBody({
      llTransactionId: 'ref_bhd',
      merchantTransactionId: 'ref_bhd',
      originalTransactionId: 'order-bhd',
      amount: 1050,
      currency: 'BHD',
      reason: 'duplicate',
      at: AT,
      timeZone: 'UTC',
    });
    expect(bhd.refund_data.refund_amount).toBe(1050);
    expect(bhd.refund_data.actual_refund_amount).toBe(1050);
  });

  it('keeps the spec key order on the wire', () => {
    const body = refundWebhookBody({
      llTransactionId: 'r',
      merchantTransactionId: 'm',
      originalTransactionId: 'o',
      amount: 1,
      currency: 'USD',
      reason: 'x',
      at: AT,
      timeZone: 'UTC',
    });
    expect(Object.keys(body)).toEqual(['ll_transaction_id', 'merchant_transaction_id', 'original_transaction_id', 'refund_data']);
    expect(Object.keys(body.refund_data)).toEqual([
      'account_date',
      'actual_refund_amount',
      'actual_refund_currency_code',
      'reason',
      'refund_amount',
      'refund_currency_code',
      'refund_status',
      'refund_time',
      'settlement_currency_code',
    ]);
  });

  it('rejects unknown currencies, fractional and negative amounts', () => {
    const base = {
      llTransactionId: 'r',
      merchantTransactionId: 'm',
      originalTransactionId: 'o',
      reason: 'x',
      at: AT,
      timeZone: 'UTC',
    };
    expect(() => refundWebhookBody({ ...base, amount: 1, currency: 'usd' })).toThrow(RangeError);
    expect(() => refundWebhookBody({ ...base, amount: 0.5, currency: 'USD' })).toThrow(RangeError);
    expect(() => refundWebhookBody({ ...base, amount: -1, currency: 'USD' })).toThrow(RangeError);
  });
});

describe('settlement in another currency (--settlement-currency)', () => {
  it('a USD payment settled in THB carries the fixed rate and the THB amount', () => {
    const body = paymentWebhookBody({
      llTransactionId: 'txn_thb',
      merchantTransactionId: 'order-thb',
      amount: 1050,
      currency: 'USD',
      status: 'SUCCEEDED',
      at: AT,
      timeZone: 'UTC',
      settlementCurrency: 'THB',
    });
    expect(body.payment_data).toMatchObject({
      exchange_rate: '36.000000',
      payment_amount: '10.50',
      payment_currency_code: 'USD',
      settlement_amount: '378.00',
      settlement_currency_code: 'THB',
    });
  });

  it('a currency without a sandbox rate settles in its own currency', () => {
    const body = paymentWebhookBody({
      llTransactionId: 'txn_bhd',
      merchantTransactionId: 'order-bhd',
      amount: 1050,
      currency: 'BHD',
      status: 'SUCCEEDED',
      at: AT,
      timeZone: 'UTC',
      settlementCurrency: 'THB',
    });
    expect(body.payment_data).toMatchObject({ exchange_rate: '1.000000', settlement_amount: '1.050', settlement_currency_code: 'BHD' });
  });

  it("the refund body names the payment's settlement currency", () => {
    const body = refundWebhookBody({
      llTransactionId: 'rf_1',
      merchantTransactionId: 'rf-1',
      originalTransactionId: 'order-1',
      amount: 300,
      currency: 'USD',
      reason: '',
      at: AT,
      timeZone: 'UTC',
      settlementCurrency: 'THB',
    });
    expect(body.refund_data).toMatchObject({ refund_amount: 300, refund_currency_code: 'USD', settlement_currency_code: 'THB' });
  });
});

describe('event bodies (--webhook-format event)', () => {
  const tx: Transaction = {
    seq: 1,
    id: 'tx-1',
    account_id: 'acc',
    status: 'SUCCEEDED',
    amount: 1050,
    currency: 'USD',
    description: null,
    customer: null,
    return_url: null,
    cancel_url: null,
    external_identifier: 'order-1',
    notification_url: null,
    metadata: null,
    payment_method: { type: 'card', card: { last4: '4242', expiration_date: '12/30', brand: 'visa' } },
    browser_info: null,
    refunded_amount: 0,
    subscription_id: null,
    scenario_rule: null,
    decline_reason: null,
    link_expires_at: null,
    created_at: AT.getTime(),
    updated_at: AT.getTime(),
    resolved_at: AT.getTime(),
  };

  it('names the outcome: transaction.completed or transaction.failed, the transaction under data.transaction', () => {
    const ok = transactionEventBody({ eventId: 'ev-1', transaction: tx, at: AT });
    expect(ok).toMatchObject({ id: 'ev-1', type: 'transaction.completed', created_at: '2026-11-21T15:30:05.000+00:00' });
    expect(ok.data.transaction).toMatchObject({
      id: 'tx-1',
      status: 'SUCCEEDED',
      amount: 1050,
      exchange_rate: '1.000000',
      settlement_amount: 1050,
    });
    expect(transactionEventBody({ eventId: 'ev-2', transaction: { ...tx, status: 'FAILED' }, at: AT }).type).toBe('transaction.failed');
    expect(() => transactionEventBody({ eventId: 'ev-3', transaction: { ...tx, status: 'PENDING' }, at: AT })).toThrow();
  });

  it('a refund is refund.completed with the refund beside the transaction', () => {
    const refund: Refund = {
      seq: 1,
      id: 'rf-1',
      account_id: 'acc',
      transaction_id: 'tx-1',
      amount: 300,
      currency: 'USD',
      reason: null,
      external_identifier: null,
      status: 'SUCCESS',
      created_at: AT.getTime(),
      updated_at: AT.getTime(),
    };
    const body = refundEventBody({
      eventId: 'ev-4',
      transaction: { ...tx, refunded_amount: 300 },
      refund,
      at: AT,
      settlementCurrency: 'THB',
    });
    expect(body.type).toBe('refund.completed');
    expect(body.data.refund).toMatchObject({ id: 'rf-1', amount: 300, status: 'SUCCESS' });
    expect(body.data.transaction).toMatchObject({ refunded_amount: 300, settlement_amount: 37800, settlement_currency_code: 'THB' });
  });
});
