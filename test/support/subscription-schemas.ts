/**
 * Support of the subscription schema tests: the schemas of both modes for one restricted
 * channel, valid bodies of each mode, and the issue paths of a parse.
 */
import { subscriptionCreateSchema } from '../../src/features/subscriptions/subscription-create-schema.js';

export const RESTRICTED = 'WALLET_RESTRICTED';
export const checkout = subscriptionCreateSchema({ restrictedChannelCode: RESTRICTED, directMode: false });
export const direct = subscriptionCreateSchema({ restrictedChannelCode: RESTRICTED, directMode: true });

export type Body = Record<string, unknown>;

/** A valid checkout-mode body; tests change one thing at a time. */
export function validBody(): Body {
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
export function validDirectBody(): Body {
  return {
    ...validBody(),
    payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
    browser_info: { javascript_enabled: true, language: 'en-US', color_depth: 24, user_device: 'desktop' },
  };
}

export function withPath(body: Body, path: string[], value: unknown): Body {
  const copy = structuredClone(body);
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path[path.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

export function issuePaths(schema: typeof checkout, body: unknown): string[] {
  const result = schema.safeParse(body);
  return result.success ? [] : result.error.issues.map((i) => i.path.join('/'));
}
