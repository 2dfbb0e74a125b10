/**
 * Test support for subscriptions and scenarios: valid creation bodies for each mode, a POST
 * helper that sends the required `X-Forwarded-For`, the control API calls the panel makes,
 * and date arithmetic written independently of `src/domain/billing-schedule.ts`.
 */
import { CHECKOUT, DIRECT, headers, testApp, type Creds } from './app.js';

export type App = ReturnType<typeof testApp>['app'];
export type Json = Record<string, unknown>;

/** A valid direct-mode subscription body: card data and browser_info. */
export function directSubscription(overrides: Json = {}): Json {
  return {
    external_identifier: 'sub-0001',
    amount: 1000,
    currency: 'USD',
    description: 'Gold membership',
    customer: { email_address: 'jane@example.com', first_name: 'Jane', last_name: 'Doe', phone_number: '+66812345678' },
    plan: { name: 'Gold', currency: 'USD', amount: 900, interval: 'month' },
    payment_method: {
      type: 'card',
      number: '4111111111111111',
      expiration_date: '12/30',
      security_code: '123',
      webhooks_url: 'http://127.0.0.1:9/hooks',
    },
    browser_info: { javascript_enabled: true, language: 'en-US', color_depth: 24, user_device: 'desktop' },
    metadata: { crm_id: 'C-42' },
    ...overrides,
  };
}

/** A valid checkout-mode subscription body: no card data, no browser_info. */
export function checkoutSubscription(overrides: Json = {}): Json {
  const { browser_info: _omitted, ...body } = directSubscription();
  return {
    ...body,
    payment_method: { type: 'card', redirect_url: 'https://merchant.example/done', webhooks_url: 'http://127.0.0.1:9/hooks' },
    ...overrides,
  };
}

/** `body` with the value at `path` replaced (`undefined` deletes it). */
export function withPath(body: Json, path: string[], value: unknown): Json {
  const copy = structuredClone(body);
  let node: Json = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Json;
  const last = path[path.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

/** POST /v4/subscriptions with `X-Forwarded-For: 203.0.113.7` unless `extra` says otherwise. */
export function postSubscription(app: App, payload: unknown, creds: Creds = DIRECT, extra: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(
    app.request('/v4/subscriptions', {
      method: 'POST',
      headers: headers(creds, { 'x-forwarded-for': '203.0.113.7', ...extra }),
      body: typeof payload === 'string' ? payload : JSON.stringify(payload),
    }),
  );
}

/** Creates a subscription and returns its body; fails the test unless 201. */
export async function createSubscription(app: App, payload: Json, creds: Creds = DIRECT): Promise<Json> {
  const res = await postSubscription(app, payload, creds);
  const json = (await res.json()) as Json;
  if (res.status !== 201) throw new Error(`expected 201, got ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/** GET /v4/subscriptions/{id}. */
export async function getSubscription(app: App, id: unknown, creds: Creds = DIRECT): Promise<Json> {
  const res = await app.request(`/v4/subscriptions/${String(id)}`, { headers: headers(creds) });
  return (await res.json()) as Json;
}

/** The subscription with its charges, as `GET /_sandbox/subscriptions` shows it. */
export async function withCharges(app: App, id: unknown, creds: Creds = DIRECT): Promise<Json & { charges: Json[] }> {
  const res = await app.request(`/_sandbox/subscriptions?account_id=${creds.account_id}&limit=100`);
  const page = (await res.json()) as { items: (Json & { charges: Json[] })[] };
  const found = page.items.find((s) => s.id === id);
  if (!found) throw new Error(`subscription ${String(id)} not in the control list`);
  return found;
}

/** POST /_sandbox/clock/advance. */
export async function advance(app: App, seconds: number): Promise<Json> {
  const res = await app.request('/_sandbox/clock/advance', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seconds }),
  });
  if (res.status !== 200) throw new Error(`advance failed: ${res.status} ${await res.text()}`);
  const advanced = (await res.json()) as Json;
  await deliveriesSettled(app);
  return advanced;
}

/**
 * Waits until no webhook is under way: every pending delivery is parked or waits for a retry
 * later on the sandbox clock. An advance answers without waiting for the webhooks it queued
 * (they go out after each commit), so tests that look at them after an advance wait here.
 */
export async function deliveriesSettled(app: App, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const now = Date.parse(String(((await (await app.request('/_sandbox/clock')).json()) as Json).now));
    const items = ((await (await app.request('/_sandbox/deliveries?limit=100')).json()) as { items: Json[] }).items;
    const underWay = items.filter(
      (d) => d.status === 'pending' && d.next_attempt_at !== null && Date.parse(String(d.next_attempt_at)) <= now,
    );
    if (underWay.length === 0) return;
    if (Date.now() > until) throw new Error(`${underWay.length} deliveries still under way after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Advances the sandbox clock to `target` (which must be ahead of it). */
export async function advanceTo(app: App, core: ReturnType<typeof testApp>['core'], target: Date): Promise<void> {
  const seconds = (target.getTime() - core.clock.nowMs()) / 1000;
  if (seconds <= 0) throw new Error(`the sandbox clock is already past ${target.toISOString()}`);
  await advance(app, seconds);
}

export const DAY = 86_400;

/** `d` plus `months` calendar months in UTC, clamped to the month's last day (independent of src/). */
export function plusMonths(d: Date, months: number, dayOfMonth = d.getUTCDate()): Date {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(y, m, Math.min(dayOfMonth, last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()),
  );
}

/** YYYY-MM-DD of an instant or ISO string. */
export const day = (d: Date | unknown): string => (d instanceof Date ? d : new Date(String(d))).toISOString().slice(0, 10);

export { CHECKOUT, DIRECT };
