/**
 * Tests of the POST /v4/subscriptions body schema: valid bodies of each mode, and every
 * field rule with its exact issue path. Cross-field rules: create-schema-rules.test.ts;
 * browser_info and the response: response-schema.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  subscriptionCreateSchema,
  type SubscriptionCreate,
  type SubscriptionCreateInput,
} from '../../../src/features/subscriptions/subscription-create-schema.js';
import { RESTRICTED, checkout, direct, validBody, validDirectBody, withPath, issuePaths } from '../../support/subscription-schemas.js';

describe('subscriptionCreateSchema: valid bodies', () => {
  it('accepts a minimal checkout body and fills plan defaults', () => {
    const result = checkout.safeParse(validBody());
    expect(result.success).toBe(true);
    const data = result.data as SubscriptionCreate;
    expect(data.plan.interval_time).toBe(1);
    expect(data.plan.payment_attempts).toBe(3);
  });

  it('accepts a full direct-mode body with every optional field', () => {
    const body: SubscriptionCreateInput = {
      external_identifier: 'x'.repeat(64),
      amount: 99_999_999,
      currency: 'THB',
      customer: {
        display_name: 'J',
        external_identifier: 'c-1',
        first_name: 'Jane',
        last_name: 'Doe',
        email_address: 'jane@example.com',
        phone_number: '+5511987654321',
        account_number: 'ACC-1',
      },
      plan: {
        name: 'Quarterly',
        currency: 'THB',
        amount: 0,
        interval: 'month',
        interval_time: 3,
        trial_period_days: 14,
        billing_cycle_anchor: '2026-01-31',
        payment_attempts: 10,
      },
      payment_method: {
        type: 'card',
        payment_channel_code: RESTRICTED,
        redirect_url: 'http://localhost:3000/done',
        webhooks_url: 'https://merchant.example/hooks',
        number: '5555555555554444',
        expiration_date: '01/31',
        security_code: '123',
        holder_name: 'JANE DOE',
      },
      billing_details: {
        first_name: 'Jane',
        last_name: 'Doe',
        email_address: 'billing@example.com',
        phone_number: '+66812345678',
        address: { city: 'Bangkok', country: 'TH', postal_code: '10110', line1: '1 Sukhumvit Rd' },
      },
      cart_items: [
        {
          name: 'Box',
          quantity: 1,
          unit_amount: 1000,
          discount_amount: 0,
          tax_amount: 70,
          sku: 'BOX-1',
          product_url: 'https://shop.example/box',
          image_url: 'https://shop.example/box.png',
          categories: ['boxes'],
          product_type: 'physical',
        },
      ],
      browser_info: {
        javascript_enabled: true,
        java_enabled: false,
        language: 'th-TH',
        color_depth: 48,
        screen_height: 1080,
        screen_width: 1920,
        time_zone_offset: -420,
        user_agent: 'Mozilla/5.0',
        accept_header: 'text/html',
        user_device: 'mobile',
      },
      trial_end: '2026-03-01T00:00:00.000+07:00',
      description: 'Gold plan',
      metadata: { order: 'A-1' },
    };
    const result = direct.safeParse(body);
    expect(result.error?.issues ?? []).toEqual([]);
  });

  it('strips unknown fields instead of refusing them', () => {
    const result = checkout.safeParse({ ...validBody(), unknown_field: 1 });
    expect(result.success).toBe(true);
    expect(result.data).not.toHaveProperty('unknown_field');
  });

  it('returns the same schema instance for the same options', () => {
    expect(subscriptionCreateSchema({ restrictedChannelCode: RESTRICTED, directMode: true })).toBe(direct);
  });
});

describe('subscriptionCreateSchema: field rules and issue paths', () => {
  const cases: Array<[string, string[], unknown, string[]?]> = [
    ['external_identifier missing', ['external_identifier'], undefined],
    ['external_identifier empty', ['external_identifier'], ''],
    ['external_identifier 65 chars', ['external_identifier'], 'x'.repeat(65)],
    ['amount missing', ['amount'], undefined],
    ['amount 0', ['amount'], 0],
    ['amount not integer', ['amount'], 10.5],
    ['amount too large', ['amount'], 1_000_000_000_000],
    ['amount as string', ['amount'], '1000'],
    ['currency lowercase', ['currency'], 'usd'],
    ['currency not ISO 4217', ['currency'], 'ABC'],
    ['customer missing', ['customer'], undefined],
    ['customer email missing', ['customer', 'email_address'], undefined],
    ['customer email invalid', ['customer', 'email_address'], 'not-an-email'],
    ['customer phone not E.164', ['customer', 'phone_number'], '0812345678'],
    ['customer phone leading zero', ['customer', 'phone_number'], '+0812345678'],
    ['customer first_name empty', ['customer', 'first_name'], ''],
    ['customer last_name 256 chars', ['customer', 'last_name'], 'x'.repeat(256)],
    ['plan missing', ['plan'], undefined],
    ['plan name missing', ['plan', 'name'], undefined],
    ['plan currency not ISO', ['plan', 'currency'], 'XYZ'],
    ['plan amount negative', ['plan', 'amount'], -1],
    ['plan interval unknown', ['plan', 'interval'], 'fortnight'],
    ['plan interval_time 0', ['plan', 'interval_time'], 0],
    ['plan interval_time 366', ['plan', 'interval_time'], 366],
    ['plan trial_period_days 731', ['plan', 'trial_period_days'], 731],
    ['plan billing_cycle_anchor not a date', ['plan', 'billing_cycle_anchor'], 'next tuesday'],
    ['plan billing_cycle_anchor impossible date', ['plan', 'billing_cycle_anchor'], '2026-02-29'],
    ['plan billing_cycle_anchor without offset', ['plan', 'billing_cycle_anchor'], '2026-02-01T10:00:00'],
    ['plan payment_attempts 0', ['plan', 'payment_attempts'], 0],
    ['plan payment_attempts 11', ['plan', 'payment_attempts'], 11],
    ['payment_method missing', ['payment_method'], undefined],
    ['payment_method type unknown', ['payment_method', 'type'], 'cash'],
    ['payment_method redirect_url not a URL', ['payment_method', 'redirect_url'], 'not a url'],
    ['payment_method webhooks_url javascript:', ['payment_method', 'webhooks_url'], 'javascript:alert(1)'],
    ['card number not Luhn-valid', ['payment_method', 'number'], '4111111111111112'],
    ['card number with letters', ['payment_method', 'number'], '4111-1111-1111-1111'],
    ['card number too short', ['payment_method', 'number'], '42424242424'],
    ['expiration_date month 13', ['payment_method', 'expiration_date'], '13/30'],
    ['expiration_date wrong format', ['payment_method', 'expiration_date'], '2030-12'],
    ['security_code 2 digits', ['payment_method', 'security_code'], '12'],
    ['security_code letters', ['payment_method', 'security_code'], 'abc'],
    ['trial_end not a date-time', ['trial_end'], '2026-03-01'],
    ['description empty', ['description'], ''],
    ['description 256 chars', ['description'], 'x'.repeat(256)],
    ['metadata value not a string', ['metadata'], { a: 1 }, ['metadata', 'a']],
    ['metadata not an object', ['metadata'], 'x'],
  ];

  it.each(cases)('%s -> issue at %j', (_name, path, value, issuePath) => {
    // Card fields are direct-mode data (checkout mode refuses them outright).
    const card = path[0] === 'payment_method' && ['number', 'expiration_date', 'security_code'].includes(path[1]!);
    const paths = card
      ? issuePaths(direct, withPath(validDirectBody(), path, value))
      : issuePaths(checkout, withPath(validBody(), path, value));
    expect(paths).toEqual([(issuePath ?? path).join('/')]);
  });

  it('reports exactly one issue for a card number that is both malformed and not Luhn-valid', () => {
    const result = direct.safeParse(withPath(validDirectBody(), ['payment_method', 'number'], '12ab'));
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.issues[0].message).toMatch(/12 to 19 digits/);
  });

  it('names the Luhn failure in the message', () => {
    const result = direct.safeParse(withPath(validDirectBody(), ['payment_method', 'number'], '4111111111111112'));
    expect(result.error?.issues[0]).toMatchObject({ path: ['payment_method', 'number'], message: expect.stringMatching(/Luhn/) });
  });

  it('accepts every documented payment method type', () => {
    for (const type of ['card', 'wallet', 'qr', 'mobile_banking']) {
      expect(issuePaths(checkout, withPath(validBody(), ['payment_method'], { type }))).toEqual([]);
    }
  });

  it('accepts a date-only and a date-time billing_cycle_anchor', () => {
    for (const anchor of ['2028-02-29', '2026-01-31T09:30:00Z', '2026-01-31T09:30:00.000+07:00']) {
      expect(issuePaths(checkout, withPath(validBody(), ['plan', 'billing_cycle_anchor'], anchor))).toEqual([]);
    }
  });

  it('enforces metadata limits: 50 keys, keys of 1 to 40 characters, values up to 500', () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v'.repeat(500)]));
    expect(issuePaths(checkout, { ...validBody(), metadata: fifty })).toEqual([]);
    expect(issuePaths(checkout, { ...validBody(), metadata: { ...fifty, extra: 'v' } })).toEqual(['metadata']);
    expect(issuePaths(checkout, { ...validBody(), metadata: { ['k'.repeat(41)]: 'v' } })).toEqual([`metadata/${'k'.repeat(41)}`]);
    expect(issuePaths(checkout, { ...validBody(), metadata: { '': 'v' } })).toEqual(['metadata/']);
    expect(issuePaths(checkout, { ...validBody(), metadata: { k: 'v'.repeat(501) } })).toEqual(['metadata/k']);
  });

  it('refuses a body that is not an object', () => {
    for (const body of [null, [], 'x', 1]) expect(issuePaths(checkout, body)).toEqual(['']);
  });
});
