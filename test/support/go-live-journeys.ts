/**
 * Two merchants, played over real sockets against a running sandbox and a real webhook
 * receiver, for the go-live report's tests (and `test/e2e/go-live/print-careless.ts`):
 *
 * - the careless one makes every mistake of every finding, in each form the report knows:
 *   creates (transactions, refunds, subscriptions) without keys; the same order created
 *   twice under a new key after a `timeout-after` fault, a refund made twice the same way, twice without a key, and the same
 *   body twice without a key or an external_identifier; polls; repeats an invalid request;
 *   retries a read and a create (under the same key) at once after a 429; leaks an sk_live_ key with and without
 *   an account; sends card data from a checkout account under several field names, accepted
 *   and refused; points one payment's webhooks at a port nobody listens on; sends a
 *   subscription's webhook URL as a top-level notification_url; and runs a handler that
 *   acknowledges everything (bad signatures included), crashes on a duplicate, is slow,
 *   hangs, answers 503 once, answers refunds with "OK", and forgets a webhook URL for a
 *   payment and for a subscription;
 * - the careful one uses only the spec's own request fields (its transactions' webhooks go
 *   to the sandbox's --notification-url), sends a key on every create (and the same key on
 *   a retry, after the Retry-After of a 429), creates two identical orders under two keys,
 *   waits for webhooks, and runs a fast handler that verifies signatures and tolerates
 *   duplicates, while its tests go through every coverage scenario.
 */
import { ACK, directPayment, type Receiver, type ReceivedWebhook } from './app.js';
import { freePort } from './ports.js';
import { directSubscription } from './subscriptions.js';

type Json = Record<string, unknown>;

export interface CreatedAccount {
  account_id: string;
  api_key: string;
}

export const merchantHeaders = (account: CreatedAccount, extra: Record<string, string> = {}): Record<string, string> => ({
  authorization: `Bearer ${account.api_key}`,
  'x-merchant-account-id': account.account_id,
  'content-type': 'application/json',
  ...extra,
});

async function json(res: Response): Promise<Json> {
  const text = await res.text();
  return text ? (JSON.parse(text) as Json) : {};
}

/** A control call that must succeed. */
export async function control(url: string, method: 'GET' | 'POST' | 'PATCH', path: string, payload?: unknown): Promise<Json> {
  const res = await fetch(`${url}/_sandbox${path}`, {
    method,
    headers: payload === undefined ? {} : { 'content-type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  const body = await json(res);
  if (!res.ok) throw new Error(`${method} /_sandbox${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

export async function createAccount(url: string, mode: 'direct' | 'checkout', name: string): Promise<CreatedAccount> {
  return (await control(url, 'POST', '/accounts', { mode, name })) as unknown as CreatedAccount;
}

/** A /v4 call of `account` (its key and account header); `signal` aborts it. */
export async function api(
  url: string,
  account: CreatedAccount,
  method: string,
  path: string,
  payload?: unknown,
  extra: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: merchantHeaders(account, extra),
    body: payload === undefined ? undefined : JSON.stringify(payload),
    signal,
  });
  return { status: res.status, body: await json(res) };
}

/** Waits until the request sent under `key` is in the request log (a request the client gave up on is logged once the sandbox gives up too). */
async function loggedOnce(url: string, account: CreatedAccount, key: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const page = await control(url, 'GET', `/requests?account_id=${account.account_id}&limit=20`);
    if ((page.items as Json[]).some((entry) => entry.idempotency_key === key)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no request logged under ${key}`);
}

/** Waits until every webhook under way has had its attempt (an advance of one second waits for them). */
const settleWebhooks = (url: string): Promise<Json> => control(url, 'POST', '/clock/advance', { seconds: 1 });

const isRefundWebhook = (hook: ReceivedWebhook): boolean =>
  typeof hook.body === 'object' && hook.body !== null && 'refund_data' in hook.body;
const merchantId = (hook: ReceivedWebhook): string => String((hook.body as Json | null)?.merchant_transaction_id ?? '');

export interface CarelessResult {
  account: CreatedAccount;
  checkout: CreatedAccount;
  /** The create that ran twice: the first (answer lost) and the retry under a new key. */
  lostAnswer: string;
  retried: string;
  /** The transaction whose webhooks were duplicated and badly signed. */
  first: string;
  polled: string;
  slow: string;
  hanging: string;
  silent: string;
  /** The payment whose webhooks went to a port nobody listens on. */
  unreachable: string;
  /** Both payments of one order created twice without a key. */
  keylessTwice: [string, string];
  /** Both payments of one body (no external_identifier) sent twice without a key. */
  sameBodyTwice: [string, string];
  /** The subscription sent with a top-level notification_url and no payment_method.webhooks_url. */
  subscription: string;
  /** The transaction answered 503 by the handler. */
  refusedWebhook: string;
}

/**
 * The careless merchant. `url` is the sandbox (started with a short delivery timeout, e.g.
 * 2000 ms, and no --notification-url); `receiver` becomes its webhook handler.
 */
export async function carelessJourney(url: string, receiver: Receiver): Promise<CarelessResult> {
  const account = await createAccount(url, 'direct', 'careless-shop');
  const checkout = await createAccount(url, 'checkout', 'careless-checkout');
  // The handler: no signature check; "processed" webhooks kept by body and signature (a second
  // identical one crashes on the unique index); slow work inline; refunds answered "OK".
  const processed = new Set<string>();
  receiver.respond = (_n, hook) => {
    const key = `${hook.raw}|${String(hook.headers.signature)}`;
    if (processed.has(key)) return { status: 500, body: 'duplicate key value violates unique constraint "orders_webhook"' };
    processed.add(key);
    if (isRefundWebhook(hook)) return { status: 200, body: 'OK' };
    if (merchantId(hook) === 'order-slow') return { ...ACK, delayMs: 1400 };
    if (merchantId(hook) === 'order-hang') return { ...ACK, delayMs: 3000 };
    if (merchantId(hook) === 'order-down') return { status: 503, body: 'Service Unavailable' };
    return ACK;
  };
  const pay = (ext: string, extra: Json = {}) => directPayment({ external_identifier: ext, notification_url: receiver.url, ...extra });
  const create = async (body: Json, extra: Record<string, string> = {}): Promise<string> => {
    const res = await api(url, account, 'POST', '/v4/transactions', body, extra);
    if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
    return String(res.body.id);
  };

  // 0. A payment whose webhooks go to a port nobody listens on: refused twice (a retry is 10 s later).
  const unreachable = await create(
    directPayment({ external_identifier: 'order-nowhere', notification_url: `http://127.0.0.1:${await freePort()}/webhooks` }),
  );
  await control(url, 'POST', `/transactions/${unreachable}/settle`);
  await settleWebhooks(url);
  await control(url, 'POST', '/clock/advance', { seconds: 15 });
  await settleWebhooks(url);

  // 1. Creates without an Idempotency-Key.
  const first = await create(pay('order-1'));
  await control(url, 'POST', `/transactions/${first}/settle`);
  await settleWebhooks(url);

  // 2. A create whose answer is lost (timeout after execution), retried under a new key.
  await api(
    url,
    account,
    'POST',
    '/v4/transactions',
    pay('order-2'),
    { 'idempotency-key': 'checkout-7f1c-attempt-1', 'x-sandbox-fault': 'timeout-after' },
    AbortSignal.timeout(400),
  ).catch(() => undefined);
  const retried = await create(pay('order-2'), { 'idempotency-key': 'checkout-7f1c-attempt-2' });
  const lostAnswer = String(
    ((await control(url, 'GET', `/transactions?account_id=${account.account_id}&limit=100`)).items as Json[]).find(
      (t) => t.external_identifier === 'order-2' && t.id !== retried,
    )?.id,
  );

  // 3. Polling the payment whose answer was lost, instead of waiting for its webhook.
  for (let i = 0; i < 12; i++) await api(url, account, 'GET', `/v4/transactions/${lostAnswer}`);

  // 4. A handler that acknowledges a badly signed webhook, and crashes on a duplicate.
  await control(url, 'POST', `/transactions/${first}/webhook-faults`, { fault: 'bad_signature' });
  await settleWebhooks(url);
  await control(url, 'POST', `/transactions/${first}/webhook-faults`, { fault: 'duplicate' });
  await settleWebhooks(url);

  // 5. A refund (no key either) whose webhook is answered "OK"; a slow handler; a hanging one.
  await control(url, 'POST', `/transactions/${retried}/settle`);
  await settleWebhooks(url);
  const refund = await api(url, account, 'POST', `/v4/transactions/${retried}/refunds`, { amount: 500 });
  if (refund.status !== 201) throw new Error(`refund: ${refund.status}`);
  // 5b. A refund whose answer never came (the client gave up), retried under a new key: refunded twice.
  await api(
    url,
    account,
    'POST',
    `/v4/transactions/${retried}/refunds`,
    { amount: 200 },
    { 'idempotency-key': 'refund-7f1c-attempt-1', 'x-sandbox-fault': 'timeout=2s-after' },
    AbortSignal.timeout(300),
  ).catch(() => undefined);
  await loggedOnce(url, account, 'refund-7f1c-attempt-1');
  const refundAgain = await api(
    url,
    account,
    'POST',
    `/v4/transactions/${retried}/refunds`,
    { amount: 200 },
    {
      'idempotency-key': 'refund-7f1c-attempt-2',
    },
  );
  if (refundAgain.status !== 201) throw new Error(`refund again: ${refundAgain.status}`);
  const slow = await create(pay('order-slow'));
  await control(url, 'POST', `/transactions/${slow}/settle`);
  const hanging = await create(pay('order-hang'));
  await control(url, 'POST', `/transactions/${hanging}/settle`);
  await settleWebhooks(url);

  // 6. A payment with nowhere to send its webhook; a handler down for one payment.
  const silent = await create(directPayment({ external_identifier: 'order-silent' }));
  await control(url, 'POST', `/transactions/${silent}/settle`);
  const refusedWebhook = await create(pay('order-down'));
  await control(url, 'POST', `/transactions/${refusedWebhook}/settle`);
  await settleWebhooks(url);

  // 6b. A subscription without a key, its webhook URL sent as a transaction's notification_url.
  const subscriptionBody = directSubscription({ external_identifier: 'careless-sub', notification_url: receiver.url });
  delete (subscriptionBody.payment_method as Json).webhooks_url;
  const sub = await api(url, account, 'POST', '/v4/subscriptions', subscriptionBody, { 'x-forwarded-for': '203.0.113.7' });
  if (sub.status !== 201) throw new Error(`subscription: ${sub.status} ${JSON.stringify(sub.body)}`);
  const subscription = String(sub.body.id);
  await settleWebhooks(url);

  // 6c. The same order twice without a key; the same body twice without a key or an external_identifier.
  const keylessTwice: [string, string] = [await create(pay('order-twice')), await create(pay('order-twice'))];
  const anonymous = directPayment({ notification_url: receiver.url });
  delete anonymous.external_identifier;
  const sameBodyTwice: [string, string] = [await create(anonymous), await create(anonymous)];
  await settleWebhooks(url);

  // 7. The same invalid request three times; a 429 retried at once; a live key; card data from checkout.
  const invalid = directPayment({ external_identifier: 'order-bad' });
  delete invalid.currency;
  for (let i = 0; i < 3; i++) await api(url, account, 'POST', '/v4/transactions', invalid);
  await api(url, account, 'GET', '/v4/transactions?limit=5', undefined, { 'x-sandbox-fault': '429=30' });
  await api(url, account, 'GET', '/v4/transactions?limit=5');
  // A create refused 429, sent again at once under the same key (its body re-encoded with other spacing).
  const rateLimited = pay('order-429');
  await fetch(`${url}/v4/transactions`, {
    method: 'POST',
    headers: merchantHeaders(account, { 'idempotency-key': 'order-429-a', 'x-sandbox-fault': '429=30' }),
    body: JSON.stringify(rateLimited, null, 2),
  });
  await create(rateLimited, { 'idempotency-key': 'order-429-a' });
  const live = 'Bearer sk_live_51HxQpLkEy0ProductionKey';
  await fetch(`${url}/v4/transactions`, { headers: { authorization: live, 'x-merchant-account-id': account.account_id } });
  await fetch(`${url}/v4/transactions`, { headers: { authorization: live } });
  // Card data from a checkout account: under the spec's names, accepted; under other names, refused or not.
  await api(url, checkout, 'POST', '/v4/transactions', directPayment({ external_identifier: 'order-c1', notification_url: receiver.url }), {
    'idempotency-key': 'c1',
  });
  await api(
    url,
    checkout,
    'POST',
    '/v4/transactions',
    { amount: 1050, currency: 'USD', return_url: 'https://shop.example/return', card: { number: '4111111111111111', cvc: '123' } },
    { 'idempotency-key': 'c2' },
  );
  await api(
    url,
    checkout,
    'POST',
    '/v4/transactions',
    { amount: 1050, currency: 'USD', payment_method: { type: 'card', card_number: '5555 5555 5555 4444', cvv: '321' } },
    { 'idempotency-key': 'c3' },
  );
  await api(
    url,
    checkout,
    'POST',
    '/v4/transactions',
    { amount: 1050, currency: 'USD', return_url: 'https://shop.example/return', cardholder: { CVV2: 4321 } },
    { 'idempotency-key': 'c4' },
  );
  await settleWebhooks(url);
  return {
    account,
    checkout,
    lostAnswer,
    retried,
    first,
    polled: lostAnswer,
    slow,
    hanging,
    silent,
    unreachable,
    keylessTwice,
    sameBodyTwice,
    subscription,
    refusedWebhook,
  };
}

export interface CarefulResult {
  account: CreatedAccount;
}

/**
 * The careful merchant, with only the spec's own request fields: its transactions name no
 * webhook URL (the sandbox is started with `--notification-url`, e.g. `notificationUrl:
 * receiver.url`), a key on every create (the same key on a retry, sent again only after the
 * Retry-After of a 429), two identical orders under two keys, webhooks instead of polling, a
 * fast handler that verifies signatures (refusing a bad one with 401) and acknowledges a
 * duplicate again; its tests go through every coverage scenario.
 */
export async function carefulJourney(url: string, receiver: Receiver): Promise<CarefulResult> {
  const account = await createAccount(url, 'direct', 'careful-shop');
  receiver.respond = (_n, hook) => (hook.verified ? ACK : { status: 401, body: '{"code":"401","message":"invalid signature"}' });
  let n = 0;
  const create = async (path: string, body: Json, extra: Record<string, string> = {}): Promise<Json> => {
    n += 1;
    const res = await api(url, account, 'POST', path, body, { 'idempotency-key': `careful-${n}`, ...extra });
    if (res.status !== 201) throw new Error(`create ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  // The spec's fields only: no external_identifier or notification_url on a transaction.
  const pay = (extra: Json = {}): Json => {
    const body = directPayment({ customer: { email: 'jane@example.com', name: 'Jane Doe' }, ...extra });
    delete body.external_identifier;
    return body;
  };

  // A fault on purpose, retried with the same key: one payment.
  const faulted = await api(url, account, 'POST', '/v4/transactions', pay(), { 'idempotency-key': 'careful-a', 'x-sandbox-fault': '503' });
  if (faulted.status !== 503) throw new Error(`fault: ${faulted.status}`);
  const paid = await api(url, account, 'POST', '/v4/transactions', pay(), { 'idempotency-key': 'careful-a' });
  const a = String(paid.body.id);
  await control(url, 'POST', `/transactions/${a}/settle`);
  // A second order of the same amount: the same body under its own key.
  const b = String((await create('/v4/transactions', pay())).id);
  await control(url, 'POST', `/transactions/${b}/fail`);
  await settleWebhooks(url);
  // Rate limited: waits the Retry-After, then sends the same create under the same key.
  const limited = await fetch(`${url}/v4/transactions`, {
    method: 'POST',
    headers: merchantHeaders(account, { 'idempotency-key': 'careful-limited', 'x-sandbox-fault': '429=1' }),
    body: JSON.stringify(pay()),
  });
  if (limited.status !== 429) throw new Error(`429: ${limited.status}`);
  await new Promise((resolve) => setTimeout(resolve, Number(limited.headers.get('retry-after')) * 1000 + 250));
  const afterLimit = await api(url, account, 'POST', '/v4/transactions', pay(), { 'idempotency-key': 'careful-limited' });
  if (afterLimit.status !== 201) throw new Error(`after 429: ${afterLimit.status}`);
  // Refunds: part, then the rest; then the scripted webhook faults.
  await create(`/v4/transactions/${a}/refunds`, { amount: 300 });
  await create(`/v4/transactions/${a}/refunds`, {});
  await settleWebhooks(url);
  for (const fault of ['duplicate', 'bad_signature', 'out_of_order']) {
    await control(url, 'POST', `/transactions/${a}/webhook-faults`, { fault });
    await settleWebhooks(url);
  }
  // A webhook the sandbox fails three times on purpose, then delivers.
  await create('/v4/transactions', pay({ metadata: { sandbox_webhook_failures: '3' } }));
  // The customer's step: one cancels on the payment page, one never comes back.
  const qr = (description: string) => ({
    amount: 35050,
    currency: 'THB',
    description,
    payment_method: { type: 'qr', payment_channel_code: 'PROMPTPAY' },
    browser_info: { user_agent: 'careful', language: 'th-TH' },
  });
  const cancelled = String((await create('/v4/transactions', qr('Order qr-1'))).id);
  const page = await fetch(`${url}/pay/${cancelled}/cancel`, { method: 'POST', redirect: 'manual' });
  if (page.status >= 400) throw new Error(`cancel: ${page.status}`);
  await create('/v4/transactions', qr('Order qr-2'));
  // Subscriptions: one renews, one goes past_due; their webhooks go to payment_method.webhooks_url.
  const sub = (ext: string, plan: Json) =>
    directSubscription({
      external_identifier: ext,
      plan: { currency: 'USD', amount: 900, ...plan },
      payment_method: {
        type: 'card',
        number: '4111111111111111',
        expiration_date: '12/30',
        security_code: '123',
        webhooks_url: receiver.url,
      },
    });
  await create('/v4/subscriptions', sub('sub-renews', { name: 'Gold', interval: 'week' }), { 'x-forwarded-for': '203.0.113.7' });
  await create('/v4/subscriptions', sub('sub-fails', { name: 'renewal-fails', interval: 'week', payment_attempts: 3 }), {
    'x-forwarded-for': '203.0.113.7',
  });
  // Eight days of sandbox time: retries, the expired link, renewals.
  await control(url, 'POST', '/clock/advance', { seconds: 8 * 86_400 });
  await settleWebhooks(url);
  return { account };
}
