/**
 * Tests of the POST /v4/subscriptions body schema and the Subscription response schema:
 * every field rule, the cross-field rules and the exact issue paths.
 */
import { describe, expect, it } from 'vitest';
import {
  browserInfoSchema,
  subscriptionCreateSchema,
  subscriptionResponseSchema,
  type SubscriptionCreate,
  type SubscriptionCreateInput,
} from '../../src/http/routes/subscriptions.schemas.js';

const RESTRICTED = 'WALLET_RESTRICTED';
const checkout = subscriptionCreateSchema({ restrictedChannelCode: RESTRICTED, directMode: false });
const direct = subscriptionCreateSchema({ restrictedChannelCode: RESTRICTED, directMode: true });

type Body = Record<string, unknown>;

/** A valid checkout-mode body; tests change one thing at a time. */
function validBody(): Body {
  return {
    external_identifier: 'sub-0001',
    amount: 1000,
    currency: 'USD',
    customer: { email_address: 'jane@example.com', first_name: 'Jane', phone_number: '+66812345678' },
    plan: { name: 'Gold', currency: 'USD', amount: 1000, interval: 'month' },
    payment_method: { type: 'card', webhooks_url: 'https://merchant.example/hooks' },
  };
}

/** A valid direct-mode body: card data and browser_info. */
function validDirectBody(): Body {
  return {
    ...validBody(),
    payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
    browser_info: { javascript_enabled: true, language: 'en-US', color_depth: 24, user_device: 'desktop' },
  };
}

function withPath(body: Body, path: string[], value: unknown): Body {
  const copy = structuredClone(body);
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path[path.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

function issuePaths(schema: typeof checkout, body: unknown): string[] {
  const result = schema.safeParse(body);
  return result.success ? [] : result.error.issues.map((i) => i.path.join('/'));
}

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
        security_code: '1234',
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
    ['amount too large', ['amount'], 100_000_000],
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
    const paths = issuePaths(checkout, withPath(validBody(), path, value));
    expect(paths).toEqual([(issuePath ?? path).join('/')]);
  });

  it('reports exactly one issue for a card number that is both malformed and not Luhn-valid', () => {
    const result = checkout.safeParse(withPath(validBody(), ['payment_method', 'number'], '12ab'));
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.issues[0].message).toMatch(/12 to 19 digits/);
  });

  it('names the Luhn failure in the message', () => {
    const result = checkout.safeParse(withPath(validBody(), ['payment_method', 'number'], '4111111111111112'));
    expect(result.error?.issues[0]).toMatchObject({ path: ['payment_method', 'number'], message: expect.stringMatching(/Luhn/) });
  });

  it('accepts every documented payment method type', () => {
    for (const type of ['card', 'wallet', 'qr', 'bank_transfer', 'mobile_banking', 'instant_payment']) {
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
      expect.objectContaining({ code: 'invalid_type', path: ['billing_details'], expected: 'object', message: expect.stringContaining(RESTRICTED) }),
      expect.objectContaining({ code: 'invalid_type', path: ['cart_items'], expected: 'array', message: expect.stringContaining(RESTRICTED) }),
    ]);

    const other = withPath(validBody(), ['payment_method'], { type: 'wallet', payment_channel_code: 'OTHER_WALLET' });
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
    const body = withPath(validBody(), ['payment_method'], { type: 'wallet', payment_channel_code: RESTRICTED });
    expect(issuePaths(other, body)).toEqual([]);
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
    expect(issuePaths(checkout, body)).toEqual([]);
  });

  it('requires number, expiration_date and security_code for type card in direct mode, each at its path', () => {
    const body = withPath(validDirectBody(), ['payment_method'], { type: 'card', holder_name: 'J' });
    expect(issuePaths(direct, body)).toEqual([
      'payment_method/number',
      'payment_method/expiration_date',
      'payment_method/security_code',
    ]);
    // Checkout mode collects card data on the payment page.
    expect(issuePaths(checkout, body)).toEqual([]);
    // Other types need no card data in direct mode, only their channel code.
    expect(issuePaths(direct, withPath(validDirectBody(), ['payment_method'], { type: 'qr', payment_channel_code: 'PROMPTPAY' }))).toEqual([]);
    expect(issuePaths(direct, withPath(validDirectBody(), ['payment_method'], { type: 'qr' }))).toEqual(['payment_method/payment_channel_code']);
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

describe('browserInfoSchema', () => {
  it('accepts the spec fields', () => {
    expect(
      browserInfoSchema.safeParse({
        javascript_enabled: true,
        java_enabled: false,
        language: 'zh-Hant-TW',
        color_depth: 30,
        screen_height: 1,
        screen_width: 100_000,
        time_zone_offset: 840,
        user_agent: 'UA',
        accept_header: '*/*',
        user_device: 'desktop',
      }).success,
    ).toBe(true);
  });

  it('reports each bad field at its path', () => {
    const result = browserInfoSchema.safeParse({
      javascript_enabled: 'yes',
      java_enabled: 1,
      language: 'english please',
      color_depth: 12,
      screen_height: 0,
      screen_width: 100_001,
      time_zone_offset: -841,
      user_agent: '',
      accept_header: 5,
      user_device: 'tablet',
    });
    expect(result.error?.issues.map((i) => i.path.join('/'))).toEqual([
      'javascript_enabled',
      'java_enabled',
      'language',
      'color_depth',
      'screen_height',
      'screen_width',
      'time_zone_offset',
      'user_agent',
      'accept_header',
      'user_device',
    ]);
  });

  it('reports a non-integer color_depth once', () => {
    expect(browserInfoSchema.safeParse({ color_depth: 24.5 }).error?.issues).toHaveLength(1);
  });

  it('is reported at browser_info/... inside the subscription body', () => {
    const body = withPath(validDirectBody(), ['browser_info', 'user_device'], 'tablet');
    expect(issuePaths(direct, body)).toEqual(['browser_info/user_device']);
  });
});

describe('subscriptionResponseSchema', () => {
  const response = {
    id: '3f0c1c9e-3a55-4b8e-9c77-8a9c7d1b2e10',
    object: 'subscription',
    external_identifier: 'sub-0001',
    amount: 1000,
    currency: 'USD',
    created: '2026-01-31T09:00:00.000+00:00',
    customer: { email_address: 'jane@example.com' },
    plan: { name: 'Gold', currency: 'USD', amount: 1000, interval: 'month', interval_time: 1, payment_attempts: 3 },
    payment_method: { type: 'card', card: { last4: '1111', expiration_date: '12/30' } },
    status: 'active',
    current_period_start: '2026-01-31T09:00:00.000+00:00',
    current_period_end: '2026-02-28T09:00:00.000+00:00',
    next_billing_date: '2026-02-28',
    trial_start: null,
    trial_end: null,
    metadata: {},
    payment_url_link: null,
  };

  it('describes the spec Subscription object', () => {
    expect(subscriptionResponseSchema.safeParse(response).success).toBe(true);
    const { metadata: _m, payment_url_link: _p, ...required } = response;
    expect(subscriptionResponseSchema.safeParse(required).success).toBe(true);
  });

  it('requires object "subscription", a known status and nullable trial fields', () => {
    expect(subscriptionResponseSchema.safeParse({ ...response, object: 'transaction' }).success).toBe(false);
    expect(subscriptionResponseSchema.safeParse({ ...response, status: 'trialing' }).success).toBe(false);
    const { trial_start: _t, ...withoutTrial } = response;
    expect(subscriptionResponseSchema.safeParse(withoutTrial).success).toBe(false);
  });
});
