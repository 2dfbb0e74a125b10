/**
 * POST /v4/subscriptions over HTTP without a socket: every validation rule with its pointer
 * and location, mode and channel rules, and every failure in one answer.
 */
import { describe, expect, it } from 'vitest';
import { headers, testApp } from '../../support/app.js';
import { CHECKOUT, DIRECT, checkoutSubscription, directSubscription, postSubscription, withPath } from '../../support/subscriptions.js';
import { failure, detailsOf } from '../../support/subscription-failures.js';

describe('POST /v4/subscriptions: validation, each failure at its pointer', () => {
  const cases: [string, string[], unknown, string, string][] = [
    ['external_identifier empty', ['external_identifier'], '', '/external_identifier', 'length_error'],
    ['external_identifier of 65', ['external_identifier'], 'x'.repeat(65), '/external_identifier', 'length_error'],
    ['external_identifier missing', ['external_identifier'], undefined, '/external_identifier', 'missing'],
    ['description empty', ['description'], '', '/description', 'length_error'],
    ['description of 256', ['description'], 'd'.repeat(256), '/description', 'length_error'],
    ['amount not an integer', ['amount'], 10.5, '/amount', 'type_error'],
    ['amount a string', ['amount'], '1000', '/amount', 'type_error'],
    ['currency lowercase', ['currency'], 'usd', '/currency', 'format_error'],
    ['currency not ISO 4217', ['currency'], 'XYZ', '/currency', 'value_error'],
    ['customer missing', ['customer'], undefined, '/customer', 'missing'],
    ['customer.email_address', ['customer', 'email_address'], 'jane-at-example', '/customer/email_address', 'format_error'],
    ['customer.phone_number without plus', ['customer', 'phone_number'], '0812345678', '/customer/phone_number', 'format_error'],
    ['customer.first_name a number', ['customer', 'first_name'], 7, '/customer/first_name', 'type_error'],
    ['plan.currency other than currency', ['plan', 'currency'], 'EUR', '/plan/currency', 'value_error'],
    ['plan.interval unknown', ['plan', 'interval'], 'fortnight', '/plan/interval', 'enum_error'],
    ['plan.interval_time 0', ['plan', 'interval_time'], 0, '/plan/interval_time', 'value_error'],
    ['plan.payment_attempts a string', ['plan', 'payment_attempts'], 'three', '/plan/payment_attempts', 'type_error'],
    ['plan.trial_period_days negative', ['plan', 'trial_period_days'], -1, '/plan/trial_period_days', 'value_error'],
    ['plan.billing_cycle_anchor not a date', ['plan', 'billing_cycle_anchor'], 'next monday', '/plan/billing_cycle_anchor', 'value_error'],
    ['payment_method.type unknown', ['payment_method', 'type'], 'cheque', '/payment_method/type', 'enum_error'],
    [
      'payment_method.webhooks_url not http',
      ['payment_method', 'webhooks_url'],
      'ftp://x.example/h',
      '/payment_method/webhooks_url',
      'format_error',
    ],
    [
      'payment_method.redirect_url not a URL',
      ['payment_method', 'redirect_url'],
      'not a url',
      '/payment_method/redirect_url',
      'format_error',
    ],
    ['payment_method.number fails Luhn', ['payment_method', 'number'], '4111111111111112', '/payment_method/number', 'value_error'],
    [
      'payment_method.expiration_date month 13',
      ['payment_method', 'expiration_date'],
      '13/30',
      '/payment_method/expiration_date',
      'value_error',
    ],
    ['browser_info.color_depth', ['browser_info', 'color_depth'], 7, '/browser_info/color_depth', 'value_error'],
    ['browser_info.java_enabled a string', ['browser_info', 'java_enabled'], 'yes', '/browser_info/java_enabled', 'type_error'],
    ['trial_end not ISO 8601', ['trial_end'], 'tomorrow', '/trial_end', 'format_error'],
    ['trial_end in the past', ['trial_end'], '2020-01-01T00:00:00Z', '/trial_end', 'value_error'],
    ['metadata value not a string', ['metadata', 'crm_id'], 42, '/metadata/crm_id', 'type_error'],
  ];
  for (const [name, path, value, pointer, type] of cases) {
    it(`${name} → 400 at ${pointer}`, async () => {
      const { app } = testApp();
      const details = await detailsOf(app, withPath(directSubscription(), path, value));
      expect(details).toContainEqual(expect.objectContaining({ pointer, type, location: 'body' }));
      expect(details).toHaveLength(1);
    });
  }

  it('trial_end "in the past" follows the sandbox clock', async () => {
    const { app, core, features } = testApp();
    const inTwoDays = new Date(core.clock.nowMs() + 2 * 86_400_000).toISOString();
    await features.sandbox.service.advanceClock(3 * 86_400);
    const details = await detailsOf(app, directSubscription({ trial_end: inTwoDays }));
    expect(details).toEqual([expect.objectContaining({ pointer: '/trial_end', type: 'value_error', location: 'body' })]);
  });

  it('X-Forwarded-For is required (400 at location header)', async () => {
    const { app } = testApp();
    const res = await app.request('/v4/subscriptions', { method: 'POST', headers: headers(), body: JSON.stringify(directSubscription()) });
    const { status, details } = await failure(res);
    expect(status).toBe(400);
    expect(details).toEqual([
      { type: 'missing', pointer: '/x-forwarded-for', message: expect.stringContaining('IP') as string, location: 'header' },
    ]);
  });

  it('X-Forwarded-For must hold an IP address (the first valid one of the list is the client)', async () => {
    const { app } = testApp();
    for (const bad of ['not-an-ip', 'proxy.example, unknown', '999.1.1.1', '']) {
      const details = await detailsOf(app, directSubscription(), DIRECT, { 'x-forwarded-for': bad });
      expect(details, bad).toEqual([expect.objectContaining({ pointer: '/x-forwarded-for', location: 'header' })]);
    }
    for (const [i, good] of ['198.51.100.4', '203.0.113.7, 10.0.0.1', '2001:db8::1'].entries()) {
      const res = await postSubscription(app, directSubscription({ external_identifier: `ip-${i}` }), DIRECT, { 'x-forwarded-for': good });
      expect(res.status, good).toBe(201);
    }
  });

  it('direct-mode accounts must send browser_info; checkout accounts need not', async () => {
    const { app } = testApp();
    const details = await detailsOf(app, directSubscription({ browser_info: undefined }));
    expect(details).toEqual([expect.objectContaining({ pointer: '/browser_info', type: 'missing', location: 'body' })]);
    expect((await postSubscription(app, checkoutSubscription(), CHECKOUT)).status).toBe(201);
  });

  it('direct-mode card subscriptions take number, expiration_date and security_code all or none', async () => {
    const { app } = testApp();
    const details = await detailsOf(app, directSubscription({ payment_method: { type: 'card', number: '4111111111111111' } }));
    expect(details.map((d) => d.pointer).sort()).toEqual(['/payment_method/expiration_date', '/payment_method/security_code']);
  });

  it('direct-mode wallet subscriptions need payment_channel_code (their charges do)', async () => {
    const { app } = testApp();
    const details = await detailsOf(app, directSubscription({ payment_method: { type: 'wallet' } }));
    expect(details).toEqual([
      expect.objectContaining({ pointer: '/payment_method/payment_channel_code', type: 'missing', location: 'body' }),
    ]);
  });

  it('the restricted channel (default RESTRICTED_WALLET) requires billing_details and cart_items', async () => {
    const { app } = testApp();
    const restricted = directSubscription({ payment_method: { type: 'wallet', payment_channel_code: 'RESTRICTED_WALLET' } });
    const details = await detailsOf(app, restricted);
    expect(details.map((d) => [d.pointer, d.type])).toEqual([
      ['/billing_details', 'missing'],
      ['/cart_items', 'missing'],
    ]);
    const complete = {
      ...restricted,
      billing_details: { first_name: 'Jane', email_address: 'jane@example.com', address: { country: 'TH', city: 'Bangkok' } },
      cart_items: [{ name: 'Gold plan', quantity: 1, unit_amount: 1000, product_type: 'service' }],
    };
    expect((await postSubscription(app, complete)).status).toBe(201);
  });

  it('sub-objects of the restricted channel are validated at their pointers', async () => {
    const { app } = testApp();
    const payload = directSubscription({
      payment_method: { type: 'wallet', payment_channel_code: 'RESTRICTED_WALLET' },
      billing_details: { address: { country: 'tha' }, phone_number: '12' },
      cart_items: [{ name: 'Gold', quantity: 'two', unit_amount: 1, product_url: 'javascript:alert(1)' }],
    });
    const details = await detailsOf(app, payload);
    expect(details.map((d) => d.pointer).sort()).toEqual([
      '/billing_details/address/country',
      '/billing_details/phone_number',
      '/cart_items/0/product_url',
      '/cart_items/0/quantity',
    ]);
  });

  it('--restricted-channel-code changes which channel is restricted', async () => {
    const { app } = testApp({ restrictedChannelCode: 'TRUEMONEY_LIMITED' });
    // RESTRICTED_WALLET is then neither restricted nor in the catalogue: an unknown code.
    const plain = directSubscription({ payment_method: { type: 'wallet', payment_channel_code: 'RESTRICTED_WALLET' } });
    expect((await detailsOf(app, plain)).map((d) => [d.pointer, d.type])).toEqual([['/payment_method/payment_channel_code', 'enum_error']]);
    const details = await detailsOf(
      testApp({ restrictedChannelCode: 'TRUEMONEY_LIMITED' }).app,
      directSubscription({ payment_method: { type: 'wallet', payment_channel_code: 'TRUEMONEY_LIMITED' } }),
    );
    expect(details.map((d) => d.pointer)).toEqual(['/billing_details', '/cart_items']);
  });

  it('reports every failure in one answer, header and body together', async () => {
    const { app } = testApp();
    const payload = directSubscription({
      external_identifier: '',
      currency: 'usd',
      browser_info: undefined,
      trial_end: '2020-01-01T00:00:00Z',
    });
    const details = await detailsOf(app, payload, DIRECT, { 'x-forwarded-for': 'nope' });
    expect(details.map((d) => `${d.location} ${d.pointer}`).sort()).toEqual([
      'body /browser_info',
      'body /currency',
      'body /external_identifier',
      'body /trial_end',
      'header /x-forwarded-for',
    ]);
  });

  it('an empty body is a 400', async () => {
    const { app } = testApp();
    const res = await app.request('/v4/subscriptions', { method: 'POST', headers: { ...headers(), 'x-forwarded-for': '203.0.113.7' } });
    expect(res.status).toBe(400);
  });
});
