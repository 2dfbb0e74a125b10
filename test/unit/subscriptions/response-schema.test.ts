/** Tests of browser_info and of the Subscription response schema. */
import { describe, expect, it } from 'vitest';
import { browserInfoSchema } from '../../../src/core/http/wire/browser-info.js';
import { subscriptionResponseSchema } from '../../../src/features/subscriptions/subscription-response-schema.js';
import { direct, validDirectBody, withPath, issuePaths } from '../../support/subscription-schemas.js';

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
