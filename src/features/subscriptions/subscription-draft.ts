/**
 * The edge between the API's subscription body and the domain: the validated POST
 * /v4/subscriptions body (`SubscriptionCreate`) mapped to the domain's `SubscriptionDraft`.
 */
import type { SubscriptionDraft } from './entities.js';
import type { SubscriptionCreate } from './subscription-create-schema.js';

/** The domain's draft of a new subscription, from a body that passed its schema (fields the body leaves out stay out). */
export function subscriptionDraft(body: SubscriptionCreate): SubscriptionDraft {
  return {
    external_identifier: body.external_identifier,
    amount: body.amount,
    currency: body.currency,
    customer: body.customer,
    plan: body.plan,
    payment_method: body.payment_method,
    ...(body.billing_details !== undefined ? { billing_details: body.billing_details } : {}),
    ...(body.cart_items !== undefined ? { cart_items: body.cart_items } : {}),
    ...(body.browser_info !== undefined ? { browser_info: body.browser_info } : {}),
    ...(body.trial_end !== undefined ? { trial_end: body.trial_end } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
  };
}
