/** The edge mapping of a validated subscription body to the domain's draft: every field, in the order stored before. */
import { describe, expect, it } from 'vitest';
import type { SubscriptionCreate } from '../../../src/features/subscriptions/subscription-create-schema.js';
import { subscriptionDraft } from '../../../src/features/subscriptions/subscription-draft.js';
import { RESTRICTED, checkout, direct, validBody } from '../../support/subscription-schemas.js';

const full = {
  // Sent in an unusual order: the draft keeps the order of the parsed body.
  metadata: { order: 'A-1' },
  description: 'Gold plan',
  trial_end: '2036-03-01T00:00:00.000+07:00',
  browser_info: { user_agent: 'Mozilla/5.0', accept_header: 'text/html', language: 'th-TH' },
  cart_items: [{ name: 'Box', quantity: 1, unit_amount: 1000 }],
  billing_details: { first_name: 'Jane', last_name: 'Doe', email_address: 'billing@example.com' },
  payment_method: {
    type: 'card',
    payment_channel_code: RESTRICTED,
    number: '5555555555554444',
    expiration_date: '01/40',
    security_code: '123',
    holder_name: 'JANE DOE',
  },
  plan: {
    name: 'Quarterly',
    currency: 'THB',
    amount: 100,
    interval: 'month',
    interval_time: 3,
    trial_period_days: 14,
    payment_attempts: 10,
  },
  customer: { email_address: 'jane@example.com', display_name: 'J' },
  currency: 'THB',
  amount: 1000,
  external_identifier: 'sub-1',
};

describe('subscriptionDraft', () => {
  it('carries every field of a full body, in the parsed order (the stored request is unchanged)', () => {
    const parsed = direct.safeParse(full);
    expect(parsed.error?.issues ?? []).toEqual([]);
    const body = parsed.data as SubscriptionCreate;
    expect(JSON.stringify(subscriptionDraft(body))).toBe(JSON.stringify(body));
  });

  it('leaves out what a minimal body leaves out', () => {
    const body = checkout.parse(validBody()) as SubscriptionCreate;
    const draft = subscriptionDraft(body);
    expect(draft).toEqual(body);
    expect(Object.keys(draft)).toEqual(Object.keys(body));
    expect(draft).not.toHaveProperty('trial_end');
  });
});
