/**
 * The cross-field rules of the POST /v4/subscriptions body schema: plan currency, the
 * direct-mode payment method rule, the restricted channel, every failure reported at once.
 */
import { describe, expect, it } from 'vitest';
import { subscriptionCreateSchema } from '../../../src/features/subscriptions/subscription-create-schema.js';
import { RESTRICTED, checkout, direct, validBody, validDirectBody, withPath, issuePaths } from '../../support/subscription-schemas.js';

describe('subscriptionCreateSchema: cross-field rules', () => {
  it('requires plan.currency to equal currency, at plan/currency', () => {
    const result = checkout.safeParse(withPath(validBody(), ['plan', 'currency'], 'EUR'));
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ code: 'custom', path: ['plan', 'currency'], message: expect.stringMatching(/EUR.*USD/) }),
    ]);
  });

  it('does not add a currency mismatch on top of an invalid currency', () => {
    expect(issuePaths(checkout, withPath(validBody(), ['currency'], 'usd'))).toEqual(['currency']);
  });

  it('requires billing_details and cart_items only for the restricted channel, naming it', () => {
    const restricted = withPath(validBody(), ['payment_method'], { type: 'wallet', payment_channel_code: RESTRICTED });
    const result = checkout.safeParse(restricted);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        code: 'invalid_type',
        path: ['billing_details'],
        expected: 'object',
        message: expect.stringContaining(RESTRICTED),
      }),
      expect.objectContaining({
        code: 'invalid_type',
        path: ['cart_items'],
        expected: 'array',
        message: expect.stringContaining(RESTRICTED),
      }),
    ]);

    const other = withPath(
      { ...validBody(), currency: 'THB', plan: { name: 'Gold', currency: 'THB', amount: 1000, interval: 'month' } },
      ['payment_method'],
      {
        type: 'wallet',
        payment_channel_code: 'TRUEMONEY',
      },
    );
    expect(issuePaths(checkout, other)).toEqual([]);

    const complete = {
      ...restricted,
      billing_details: { email_address: 'b@example.com' },
      cart_items: [{ name: 'Plan', quantity: 1, unit_amount: 1000 }],
    };
    expect(issuePaths(checkout, complete)).toEqual([]);
  });

  it('uses the configured restricted channel code', () => {
    const other = subscriptionCreateSchema({ restrictedChannelCode: 'ANOTHER', directMode: false });
    // The default one is then neither restricted nor in the catalogue: an unknown code.
    const body = withPath(validBody(), ['payment_method'], { type: 'wallet', payment_channel_code: RESTRICTED });
    expect(issuePaths(other, body)).toEqual(['payment_method/payment_channel_code']);
    const body2 = withPath(validBody(), ['payment_method'], { type: 'wallet', payment_channel_code: 'ANOTHER' });
    expect(issuePaths(other, body2)).toEqual(['billing_details', 'cart_items']);
  });

  it('validates billing_details and cart_items content', () => {
    const body = {
      ...validBody(),
      billing_details: {
        email_address: 'nope',
        phone_number: '12345',
        address: { country: 'tha', line1: '' },
      },
      cart_items: [
        { name: 'ok', quantity: 1, unit_amount: 0 },
        { quantity: 0, unit_amount: -1, tax_amount: 1.5, product_url: 'nope', product_type: 'boat', categories: [''] },
      ],
    };
    expect(issuePaths(checkout, body)).toEqual([
      'billing_details/email_address',
      'billing_details/phone_number',
      'billing_details/address/country',
      'billing_details/address/line1',
      'cart_items/1/name',
      'cart_items/1/quantity',
      'cart_items/1/unit_amount',
      'cart_items/1/tax_amount',
      'cart_items/1/product_url',
      'cart_items/1/categories/0',
      'cart_items/1/product_type',
    ]);
  });

  it('limits cart_items to 1..249 elements', () => {
    const item = { name: 'x', quantity: 1, unit_amount: 1 };
    expect(issuePaths(checkout, { ...validBody(), cart_items: [] })).toEqual(['cart_items']);
    expect(issuePaths(checkout, { ...validBody(), cart_items: Array(249).fill(item) })).toEqual([]);
    expect(issuePaths(checkout, { ...validBody(), cart_items: Array(250).fill(item) })).toEqual(['cart_items']);
  });

  it('requires browser_info only in direct mode', () => {
    const body = withPath(validDirectBody(), ['browser_info'], undefined);
    expect(issuePaths(direct, body)).toEqual(['browser_info']);
    expect(issuePaths(checkout, withPath(validBody(), ['browser_info'], undefined))).toEqual([]);
  });

  it('direct mode takes the card fields all or none (none: the default test card), each missing one at its path', () => {
    const body = withPath(validDirectBody(), ['payment_method'], { type: 'card', holder_name: 'J' });
    expect(issuePaths(direct, body)).toEqual([]);
    expect(issuePaths(direct, withPath(validDirectBody(), ['payment_method'], { type: 'card', number: '4111111111111111' }))).toEqual([
      'payment_method/expiration_date',
      'payment_method/security_code',
    ]);
    // Checkout mode collects card data on the payment page.
    expect(issuePaths(checkout, body)).toEqual([]);
    // Other types need no card data in direct mode, only their channel code (in the catalogue, with its currency).
    const thb = { ...validDirectBody(), currency: 'THB', plan: { name: 'Gold', currency: 'THB', amount: 1000, interval: 'month' } };
    expect(issuePaths(direct, withPath(thb, ['payment_method'], { type: 'qr', payment_channel_code: 'PROMPTPAY' }))).toEqual([]);
    expect(issuePaths(direct, withPath(validDirectBody(), ['payment_method'], { type: 'qr' }))).toEqual([
      'payment_method/payment_channel_code',
    ]);
  });

  it('reports every failure at once, field rules and cross-field rules together', () => {
    const body = {
      external_identifier: '',
      amount: 0,
      currency: 'USD',
      customer: { email_address: 'nope' },
      plan: { name: 'P', currency: 'EUR', amount: 1, interval: 'fortnight' },
      payment_method: { type: 'card', payment_channel_code: RESTRICTED, number: '4111111111111112' },
    };
    expect(issuePaths(direct, body).sort()).toEqual(
      [
        'external_identifier',
        'amount',
        'customer/email_address',
        'plan/interval',
        'plan/currency',
        'payment_method/number',
        'payment_method/expiration_date',
        'payment_method/security_code',
        'billing_details',
        'cart_items',
        'browser_info',
      ].sort(),
    );
  });
});
