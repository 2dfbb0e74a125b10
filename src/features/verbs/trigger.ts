/**
 * `trigger <event>`: creates what the event needs through `/v4` with the account's own API
 * key, plays it through the control API (settle, fail, refund, or the account's own clock for a
 * renewal, so no other account moves) and returns the ids it made.
 */
import { randomUUID } from 'node:crypto';
import type { AccountCredentials } from '../accounts/index.js';
import type { ControlSubscription } from '../subscriptions/index.js';
import { VERB_EXIT, VerbFailure, type SandboxClient, type Transaction } from './client.js';

/** The events `trigger` plays. */
export const TRIGGER_EVENTS = [
  'payment.succeeded',
  'payment.failed',
  'refund.succeeded',
  'subscription.renewed',
  'subscription.past_due',
] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

/** What a trigger made and where it ended. */
export interface TriggerResult {
  event: TriggerEvent;
  account_id: string;
  transaction_id?: string;
  refund_id?: string;
  subscription_id?: string;
  /** The renewal charge of a subscription event. */
  charge_id?: string;
  /** The final status of the transaction, or of the subscription. */
  status: string;
  /** The webhook deliveries the event queued. */
  delivery_ids: string[];
}

export interface TriggerOptions {
  accountId?: string;
  /** Where the event's webhooks go (default: the sandbox's --notification-url). */
  webhookUrl?: string;
}

/** A day in seconds: the plan's interval, so one advance of the account's clock reaches the first renewal. */
const DAY_SECONDS = 86_400;

/** The plan name the default scenario fails every renewal attempt of (docs/scenarios.md). */
const RENEWAL_FAILS_PLAN = 'renewal-fails';

const BROWSER_INFO = { javascript_enabled: true, language: 'en-US', color_depth: 24, user_device: 'desktop' } as const;
const TEST_CARD = { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' } as const;

/** A create body for the account's mode: card and browser_info in direct mode, return_url in checkout mode. */
function paymentBody(account: AccountCredentials, reference: string, webhookUrl: string | undefined): Record<string, unknown> {
  return {
    amount: 1050,
    currency: 'USD',
    description: `payment-sandbox trigger ${reference}`,
    external_identifier: reference,
    ...(webhookUrl === undefined ? {} : { notification_url: webhookUrl }),
    ...(account.mode === 'direct'
      ? { payment_method: TEST_CARD, browser_info: BROWSER_INFO }
      : { return_url: 'https://merchant.example/return', cancel_url: 'https://merchant.example/cancel' }),
  };
}

/** A direct-mode subscription body on a daily plan. */
function subscriptionBody(reference: string, planName: string, webhookUrl: string | undefined): Record<string, unknown> {
  return {
    external_identifier: reference,
    amount: 1000,
    currency: 'USD',
    description: `payment-sandbox trigger ${reference}`,
    customer: { email_address: 'trigger@example.com', first_name: 'Trigger', last_name: 'Customer' },
    plan: { name: planName, currency: 'USD', amount: 900, interval: 'day' },
    payment_method: { ...TEST_CARD, ...(webhookUrl === undefined ? {} : { webhooks_url: webhookUrl }) },
    browser_info: BROWSER_INFO,
  };
}

/** Plays `event` on the account (default: the demo direct account). */
export async function trigger(client: SandboxClient, event: TriggerEvent, options: TriggerOptions): Promise<TriggerResult> {
  const account = await client.account(options.accountId);
  const reference = `trigger-${randomUUID().slice(0, 8)}`;
  const create = <T>(path: string, body: Record<string, unknown>, extra: Record<string, string> = {}): Promise<T> =>
    client.v4<T>(account, 'POST', path, { body, headers: { 'idempotency-key': `${reference}-create`, ...extra } });

  if (event === 'subscription.renewed' || event === 'subscription.past_due') {
    if (account.mode !== 'direct')
      throw new VerbFailure(
        `${event} needs a direct-mode account (a checkout subscription's first charge waits for the customer); account ${account.account_id} is ${account.mode}`,
        VERB_EXIT.usage,
      );
    const plan = event === 'subscription.renewed' ? 'Daily' : RENEWAL_FAILS_PLAN;
    const created = await create<{ id: string }>('/subscriptions', subscriptionBody(reference, plan, options.webhookUrl), {
      'x-forwarded-for': '203.0.113.7',
    });
    await client.advanceAccountClock(account.account_id, DAY_SECONDS);
    const page = await client.subscriptions(account.account_id);
    const subscription: ControlSubscription | undefined = page.items.find((s) => s.id === created.id);
    if (!subscription) throw new VerbFailure(`subscription ${created.id} is not in the sandbox's list`, VERB_EXIT.refused);
    const charges = subscription.charges;
    const renewal = charges[charges.length - 1];
    const deliveryIds: string[] = [];
    for (const charge of charges) deliveryIds.push(...(await client.transaction(charge.id)).deliveries.map((d) => d.id));
    return {
      event,
      account_id: account.account_id,
      subscription_id: subscription.id,
      ...(renewal === undefined ? {} : { charge_id: renewal.id }),
      status: subscription.status,
      delivery_ids: deliveryIds,
    };
  }

  const transaction = await create<Transaction>('/transactions', paymentBody(account, reference, options.webhookUrl));
  let refundId: string | undefined;
  if (event === 'payment.failed') await client.fail(transaction.id);
  else await client.settle(transaction.id);
  if (event === 'refund.succeeded') refundId = (await client.refund(transaction.id)).id;
  const detail = await client.transaction(transaction.id);
  const deliveryIds = detail.deliveries.map((d) => d.id);
  if (refundId !== undefined) {
    const recent = await client.deliveries({ accountId: account.account_id, limit: 100 });
    deliveryIds.push(...recent.items.filter((d) => d.resource_id === refundId).map((d) => d.id));
  }
  return {
    event,
    account_id: account.account_id,
    transaction_id: transaction.id,
    ...(refundId === undefined ? {} : { refund_id: refundId }),
    status: detail.status,
    delivery_ids: deliveryIds,
  };
}
