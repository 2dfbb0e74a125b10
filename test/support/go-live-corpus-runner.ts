/**
 * Plays the corpus of `go-live-corpus.ts` against a running sandbox over real sockets: each
 * journey in its own account (`POST /_sandbox/accounts`), its webhooks to its own path of one
 * shared receiver, its verdict the set of finding codes of that account's report. Then
 * precision and recall over the corpus, per code and in all, and every disagreement with
 * what it needs to be replayed (the seed, the journey, its episodes, expected and got).
 */
import { CONFORMANCE_USER_AGENT_PRODUCT } from '../../src/core/sandbox-client.js';
import { packageVersion } from '../../src/core/config.js';
import { ACK, directPayment, type Receiver, type ReceivedWebhook } from './app.js';
import { control, createAccount, type CreatedAccount } from './go-live-journeys.js';
import { freePort } from './ports.js';
import { directSubscription } from './subscriptions.js';
import {
  CORPUS_CODES,
  type CorpusCode,
  type Episode,
  type HandlerKind,
  type Journey,
  type LostAnswerForm,
  type Mode,
} from './go-live-corpus.js';

type Json = Record<string, unknown>;

/** How long the runner's handlers take: the sandbox must be started with `deliveryTimeoutMs` = `CORPUS_DELIVERY_TIMEOUT_MS`. */
export const CORPUS_DELIVERY_TIMEOUT_MS = 3000;
const SLOW_MS = CORPUS_DELIVERY_TIMEOUT_MS / 2 + 600;
const HANG_MS = CORPUS_DELIVERY_TIMEOUT_MS + 800;

/** The `User-Agent` the conformance kit sends: the report skips its requests. */
const CONFORMANCE_KIT_USER_AGENT = `${CONFORMANCE_USER_AGENT_PRODUCT}/${packageVersion()}`;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  body: Json;
  retryAfterS: number;
}

/** One merchant: its account, its webhook URL, and a client that can be careful or careless. */
class Merchant {
  private keys = 0;
  private carts = 0;
  readonly log: string[] = [];
  constructor(
    readonly url: string,
    readonly account: CreatedAccount,
    readonly journey: Journey,
    readonly webhookUrl: string,
  ) {}

  key(): string {
    return `j${this.journey.index}-k${++this.keys}-${this.account.account_id.slice(-6)}`;
  }

  /** One /v4 call; `null` when no answer reached the client (it gave up, or the connection dropped). */
  async send(
    method: string,
    path: string,
    payload?: unknown,
    opts: { key?: string | null; fault?: string; giveUpMs?: number; auth?: string; userAgent?: string } = {},
  ): Promise<Answer | null> {
    const headers: Record<string, string> = {
      authorization: opts.auth ?? `Bearer ${this.account.api_key}`,
      'x-merchant-account-id': this.account.account_id,
      // The customer's address, which subscription creates require.
      'x-forwarded-for': '203.0.113.7',
    };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (opts.key) headers['idempotency-key'] = opts.key;
    if (opts.fault) headers['x-sandbox-fault'] = opts.fault;
    if (opts.userAgent) headers['user-agent'] = opts.userAgent;
    try {
      const res = await fetch(`${this.url}${path}`, {
        method,
        headers,
        body: payload === undefined ? undefined : JSON.stringify(payload),
        signal: opts.giveUpMs ? AbortSignal.timeout(opts.giveUpMs) : undefined,
      });
      const text = await res.text();
      let body: Json = {};
      try {
        body = text ? (JSON.parse(text) as Json) : {};
      } catch {
        body = { text };
      }
      this.log.push(`${method} ${path}${opts.key ? ` key=${opts.key}` : ''}${opts.fault ? ` fault=${opts.fault}` : ''} -> ${res.status}`);
      return { status: res.status, body, retryAfterS: Number(res.headers.get('retry-after') ?? 1) };
    } catch {
      this.log.push(`${method} ${path}${opts.key ? ` key=${opts.key}` : ''}${opts.fault ? ` fault=${opts.fault}` : ''} -> no answer`);
      return null;
    }
  }

  /** The careful client: the same key on every retry; waits for Retry-After on 429, retries 409, 5xx and lost answers. */
  async careful(method: string, path: string, payload: unknown, key: string | null, expect = [200, 201]): Promise<Json> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const a = await this.send(method, path, payload, { key });
      if (a && expect.includes(a.status)) return a.body;
      if (a && a.status === 429) await sleep(a.retryAfterS * 1000 + 150);
      else if (a && a.status < 409) throw new Error(`${method} ${path}: ${a.status} ${JSON.stringify(a.body)}`);
      else await sleep(150);
    }
    throw new Error(`${method} ${path}: no success after 20 attempts`);
  }

  /** A create whose answer never reaches the client, in one of the ways a real client meets it. */
  async loseAnswer(path: string, payload: unknown, key: string | null, form: LostAnswerForm): Promise<void> {
    if (form === 'latency') {
      await control(this.url, 'PATCH', `/accounts/${this.account.account_id}`, { latency: 900 });
      const a = await this.send('POST', path, payload, { key, giveUpMs: 300 });
      await control(this.url, 'PATCH', `/accounts/${this.account.account_id}`, { latency: 0 });
      if (a !== null) throw new Error(`latency: the answer arrived (${a.status})`);
      await sleep(800); // the held create completes
      return;
    }
    const a = await this.send('POST', path, payload, { key, fault: form, giveUpMs: form === 'timeout-after' ? 400 : undefined });
    if (a !== null && a.status !== 503) throw new Error(`${form}: got ${a.status}`);
  }

  /**
   * A create body. Without an order id, each call is another cart (its own description): two
   * orders of one shop differ in what they buy. Episodes that mean identical bodies (a basket,
   * a retry) say so with their own `description` or by sending the same body again.
   */
  payment(order: string | null, amount: number, currency: string, mode: Mode, extra: Json = {}): Json {
    const description = `Order ${order ?? `j${this.journey.index}-cart${++this.carts}`}`;
    const base: Json =
      mode === 'direct'
        ? directPayment({ amount, currency, description, notification_url: this.webhookUrl })
        : {
            amount,
            currency,
            description,
            return_url: 'https://shop.example/return',
            cancel_url: 'https://shop.example/cancel',
            notification_url: this.webhookUrl,
          };
    if (mode === 'direct') delete base.external_identifier;
    if (order !== null) base.external_identifier = order;
    return { ...base, ...extra };
  }

  async pay(
    order: string | null,
    amount: number,
    currency: string,
    mode: Mode,
    key: string | null = this.key(),
    extra: Json = {},
  ): Promise<Json> {
    return this.careful('POST', '/v4/transactions', this.payment(order, amount, currency, mode, extra), key);
  }

  async settle(id: unknown): Promise<void> {
    await control(this.url, 'POST', `/transactions/${String(id)}/settle`);
    await this.webhooksDone();
  }

  async settledPayment(order: string | null, amount: number, currency: string, mode: Mode): Promise<string> {
    const tx = await this.pay(order, amount, currency, mode);
    await this.settle(tx.id);
    return String(tx.id);
  }

  /**
   * Waits until every webhook of the account had its attempt (none queued). The newest 20
   * deliveries are enough: the runner waits after each call that queues webhooks, so fewer
   * than 20 are ever queued at once, and they are the newest.
   */
  async webhooksDone(): Promise<void> {
    for (let i = 0; i < 250; i++) {
      const page = await control(this.url, 'GET', `/deliveries?account_id=${this.account.account_id}&limit=20`);
      if (!(page.items as { state: string }[]).some((d) => d.state === 'queued')) return;
      await sleep(40);
    }
    throw new Error('webhooks still queued after 10 s');
  }

  async advance(seconds: number): Promise<void> {
    await control(this.url, 'POST', `/accounts/${this.account.account_id}/clock/advance`, { seconds });
    await this.webhooksDone();
  }

  async rateLimit(n: number): Promise<void> {
    await control(this.url, 'PATCH', `/accounts/${this.account.account_id}`, { rate_limit: n });
  }
}

/** Runs one episode. */
async function play(m: Merchant, e: Episode): Promise<void> {
  switch (e.do) {
    case 'order': {
      const tx = await m.pay(e.order, e.amount, e.currency, e.mode);
      for (let i = 0; i < e.reads; i++) await m.careful('GET', `/v4/transactions/${String(tx.id)}`, undefined, null);
      if (e.then !== 'leave') await control(m.url, 'POST', `/transactions/${String(tx.id)}/${e.then}`);
      await m.webhooksDone();
      return;
    }
    case 'retry_5xx_same_key': {
      const key = m.key();
      const body = m.payment(e.order, e.amount, e.currency, e.mode);
      const first = await m.send('POST', '/v4/transactions', body, { key, fault: '503' });
      if (first?.status !== 503) throw new Error(`503 fault: ${first?.status}`);
      const tx = await m.careful('POST', '/v4/transactions', body, key);
      await m.settle(tx.id);
      return;
    }
    case 'lost_answer_same_key': {
      const key = m.key();
      const body = m.payment(e.order, e.amount, e.currency, e.mode);
      await m.loseAnswer('/v4/transactions', body, key, e.form);
      const tx = await m.careful('POST', '/v4/transactions', body, key);
      await m.settle(tx.id);
      return;
    }
    case 'wait_retry_after': {
      const key = m.key();
      const body = m.payment(e.order, e.amount, e.currency, e.mode);
      const first = await m.send('POST', '/v4/transactions', body, { key, fault: '429=1' });
      if (first?.status !== 429) throw new Error(`429 fault: ${first?.status}`);
      await sleep(first.retryAfterS * 1000 + 150);
      await m.careful('POST', '/v4/transactions', body, key);
      return;
    }
    case 'retry_failed_order': {
      if (e.how === 'declined_card') {
        const declined = await m.pay(e.order, e.amount, e.currency, e.mode, m.key(), {
          payment_method: { type: 'card', number: '4000000000000002', expiration_date: '12/30', security_code: '123' },
        });
        if (declined.status !== 'FAILED') throw new Error(`declined card: ${String(declined.status)}`);
      } else {
        const first = await m.pay(e.order, e.amount, e.currency, e.mode);
        if (e.how === 'cancelled_page') {
          const page = await fetch(`${m.url}/pay/${String(first.id)}/cancel`, { method: 'POST', redirect: 'manual' });
          if (page.status >= 400) throw new Error(`cancel: ${page.status}`);
        } else {
          await m.advance(86_400 + 60);
        }
      }
      await m.webhooksDone();
      await m.settledPayment(e.order, e.amount, e.currency, e.mode);
      return;
    }
    case 'equal_partial_refunds': {
      const id = await m.settledPayment(e.order, e.amount, e.currency, e.mode);
      const part = Math.floor(e.amount / 4);
      await m.careful('POST', `/v4/transactions/${id}/refunds`, { amount: part }, m.key());
      await m.careful('POST', `/v4/transactions/${id}/refunds`, { amount: part }, m.key());
      await m.webhooksDone();
      return;
    }
    case 'refund_lost_answer_same_key': {
      const id = await m.settledPayment(e.order, e.amount, e.currency, e.mode);
      const key = m.key();
      const refund = { amount: Math.floor(e.amount / 3) };
      await m.loseAnswer(`/v4/transactions/${id}/refunds`, refund, key, e.form);
      await m.careful('POST', `/v4/transactions/${id}/refunds`, refund, key);
      await m.webhooksDone();
      return;
    }
    case 'basket_under_rate_limit': {
      await m.rateLimit(e.rateLimit);
      const body = m.payment(null, e.amount, e.currency, e.mode, { description: `Basket j${m.journey.index}` });
      await Promise.all(Array.from({ length: e.customers }, () => m.careful('POST', '/v4/transactions', body, m.key())));
      await m.rateLimit(0);
      await m.webhooksDone();
      return;
    }
    case 'two_orders_two_keys': {
      const body = m.payment(null, e.amount, e.currency, e.mode, { description: `Two orders j${m.journey.index}` });
      await m.careful('POST', '/v4/transactions', body, m.key());
      await m.careful('POST', '/v4/transactions', body, m.key());
      return;
    }
    case 'webhook_fault':
    case 'trigger_fault': {
      const id = await m.settledPayment(e.order, e.amount, e.currency, e.mode);
      await control(m.url, 'POST', `/transactions/${id}/webhook-faults`, { fault: e.fault });
      await m.webhooksDone();
      return;
    }
    case 'subscription':
    case 'subscription_without_key':
    case 'subscription_top_level_url': {
      const body = directSubscription({
        external_identifier: e.order,
        plan: { name: 'Gold', currency: 'USD', amount: e.amount, interval: 'month' },
        payment_method: {
          type: 'card',
          number: '4111111111111111',
          expiration_date: '12/30',
          security_code: '123',
          webhooks_url: m.webhookUrl,
        },
        ...(e.do === 'subscription_top_level_url' ? { notification_url: m.webhookUrl } : {}),
      });
      await m.careful('POST', '/v4/subscriptions', body, e.do === 'subscription_without_key' ? null : m.key());
      await m.webhooksDone();
      return;
    }
    case 'canary': {
      await control(m.url, 'PATCH', `/accounts/${m.account.account_id}`, { webhook_canary: true });
      await m.settledPayment(e.order, e.amount, e.currency, e.mode);
      // The canary is queued once the settlement's webhook was acknowledged: wait for its attempt too.
      await m.webhooksDone();
      return;
    }
    case 'conformance_traffic': {
      const kit = { userAgent: CONFORMANCE_KIT_USER_AGENT };
      const expect = async (a: Promise<Answer | null>, status: number, what: string): Promise<Json> => {
        const got = await a;
        if (got?.status !== status) throw new Error(`conformance ${what}: ${got?.status}`);
        return got.body;
      };
      const body = m.payment(null, e.amount, e.currency, e.mode, { description: `Conformance j${m.journey.index}` });
      const tx = await expect(m.send('POST', '/v4/transactions', body, kit), 201, 'create');
      await expect(m.send('POST', '/v4/transactions', body, kit), 201, 'create again');
      const untargeted: Json = { ...body, description: `Conformance j${m.journey.index} no target` };
      delete untargeted.notification_url;
      await m.settle((await expect(m.send('POST', '/v4/transactions', untargeted, kit), 201, 'create without a target')).id);
      for (let i = 0; i < 3; i++) await expect(m.send('POST', '/v4/transactions', { ...body, currency: undefined }, kit), 400, 'invalid');
      await expect(
        m.send('GET', '/v4/transactions', undefined, { ...kit, auth: 'Bearer sk_live_51HxQpLkEy0ProductionKey' }),
        401,
        'live key',
      );
      for (let i = 0; i < 12; i++) await expect(m.send('GET', `/v4/transactions/${String(tx.id)}`, undefined, kit), 200, 'read');
      if (e.mode === 'checkout') {
        const card = {
          ...body,
          payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
        };
        await expect(m.send('POST', '/v4/transactions', card, kit), 400, 'card data');
      }
      await m.settle(tx.id);
      const refund = { amount: Math.floor(e.amount / 2) };
      await expect(m.send('POST', `/v4/transactions/${String(tx.id)}/refunds`, refund, kit), 201, 'refund');
      await expect(m.send('POST', `/v4/transactions/${String(tx.id)}/refunds`, refund, kit), 201, 'refund again');
      await m.webhooksDone();
      return;
    }
    case 'reads':
      for (let i = 0; i < e.lists; i++) await m.careful('GET', `/v4/transactions?limit=${5 * (i + 1)}`, undefined, null);
      if (e.buyers) await m.careful('GET', '/v4/buyers?limit=3', undefined, null);
      return;
    case 'create_without_key': {
      const tx = await m.pay(e.order, e.amount, e.currency, e.mode, null);
      await m.settle(tx.id);
      return;
    }
    case 'refund_without_key': {
      const id = await m.settledPayment(e.order, e.amount, e.currency, e.mode);
      await m.careful('POST', `/v4/transactions/${id}/refunds`, { amount: Math.floor(e.amount / 2) }, null);
      await m.webhooksDone();
      return;
    }
    case 'lost_answer_new_key': {
      const body = m.payment(e.order, e.amount, e.currency, e.mode);
      await m.loseAnswer('/v4/transactions', body, m.key(), e.form);
      await m.careful('POST', '/v4/transactions', body, e.retryKey === 'new' ? m.key() : null);
      await m.webhooksDone();
      return;
    }
    case 'same_order_two_keys': {
      const first = await m.pay(e.order, e.amount, e.currency, e.mode);
      if (e.first === 'settle') await m.settle(first.id);
      await m.pay(e.order, e.amount, e.currency, e.mode);
      return;
    }
    case 'identical_keyless_creates': {
      const body = m.payment(null, e.amount, e.currency, e.mode, { description: `Keyless j${m.journey.index}` });
      await m.careful('POST', '/v4/transactions', body, null);
      await m.careful('POST', '/v4/transactions', body, null);
      return;
    }
    case 'refund_lost_answer_new_key': {
      const id = await m.settledPayment(e.order, e.amount, e.currency, e.mode);
      const refund = { amount: Math.floor(e.amount / 3) };
      await m.loseAnswer(`/v4/transactions/${id}/refunds`, refund, m.key(), e.form);
      await m.careful('POST', `/v4/transactions/${id}/refunds`, refund, m.key());
      await m.webhooksDone();
      return;
    }
    case 'identical_keyless_refunds': {
      const id = await m.settledPayment(e.order, e.amount, e.currency, e.mode);
      const refund = { amount: Math.floor(e.amount / 3) };
      await m.careful('POST', `/v4/transactions/${id}/refunds`, refund, null);
      await m.careful('POST', `/v4/transactions/${id}/refunds`, refund, null);
      await m.webhooksDone();
      return;
    }
    case 'repeat_invalid': {
      const body = m.payment(`j${m.journey.index}-invalid`, 1000, 'USD', e.mode);
      delete body.currency;
      const key = m.key();
      for (let i = 0; i < e.times; i++) {
        const a = await m.send('POST', '/v4/transactions', body, { key });
        if (a?.status !== 400) throw new Error(`invalid create: ${a?.status}`);
      }
      return;
    }
    case 'live_key': {
      const a = await m.send('GET', '/v4/transactions', undefined, { auth: 'Bearer sk_live_51HxQpLkEy0ProductionKey' });
      if (a?.status !== 401) throw new Error(`live key: ${a?.status}`);
      return;
    }
    case 'checkout_card_data': {
      const body = m.payment(e.order, 1050, 'USD', 'checkout');
      if (e.form === 'payment_method')
        body.payment_method = { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' };
      else if (e.form === 'card_object') body.card = { number: '5555 5555 5555 4444', cvc: '321' };
      else body.cardholder = { CVV2: 4321 };
      const a = await m.send('POST', '/v4/transactions', body, { key: m.key() });
      if (a === null || a.status >= 500) throw new Error(`card data: ${a?.status}`);
      return;
    }
    case 'ignore_retry_after': {
      if (e.form === 'read_fault') {
        await m.send('GET', '/v4/transactions?limit=5', undefined, { fault: '429=5' });
        await m.send('GET', '/v4/transactions?limit=5');
        return;
      }
      const key = m.key();
      const body = m.payment(e.order, e.amount, e.currency, e.mode);
      if (e.form === 'create_fault') {
        await m.send('POST', '/v4/transactions', body, { key, fault: '429=5' });
        await m.send('POST', '/v4/transactions', body, { key });
        return;
      }
      await m.rateLimit(1);
      await m.send('POST', '/v4/transactions', m.payment(`${e.order}-first`, e.amount, e.currency, e.mode), { key: m.key() });
      let limited = await m.send('POST', '/v4/transactions', body, { key });
      for (let i = 0; i < 5 && limited?.status !== 429; i++) limited = await m.send('POST', '/v4/transactions', body, { key });
      if (limited?.status !== 429) throw new Error('rate limit: no 429');
      await m.send('POST', '/v4/transactions', body, { key }); // at once, the same key
      await m.rateLimit(0);
      await m.careful('POST', '/v4/transactions', body, key);
      await m.webhooksDone();
      return;
    }
    case 'poll_pending': {
      const tx = await m.pay(e.order, e.amount, e.currency, e.mode);
      for (let i = 0; i < e.reads; i++) await m.careful('GET', `/v4/transactions/${String(tx.id)}`, undefined, null);
      return;
    }
    case 'settled_order':
      await m.settledPayment(e.order, e.amount, e.currency, e.mode);
      return;
    case 'no_notification_url': {
      const body = m.payment(e.order, e.amount, e.currency, e.mode);
      delete body.notification_url;
      const tx = await m.careful('POST', '/v4/transactions', body, m.key());
      await m.settle(tx.id);
      return;
    }
    case 'unreachable_url': {
      const tx = await m.pay(e.order, e.amount, e.currency, e.mode, m.key(), {
        notification_url: `http://127.0.0.1:${await freePort()}/webhooks`,
      });
      await m.settle(tx.id);
      await m.advance(15);
      return;
    }
  }
}

/** The webhook handler of a journey, as its `HandlerKind` says. */
function handlerOf(kind: HandlerKind): (hook: ReceivedWebhook) => { status: number; body: string; delayMs?: number } {
  const refuse = { status: 401, body: '{"code":"401","message":"invalid signature"}' };
  const seen = new Set<string>();
  const orderOf = (hook: ReceivedWebhook): string => String((hook.body as Json | null)?.merchant_transaction_id ?? '');
  return (hook) => {
    switch (kind.kind) {
      case 'acks_everything':
        return ACK;
      case 'refuses_duplicates': {
        if (!hook.verified) return refuse;
        const key = `${hook.raw}|${String(hook.headers.signature)}`;
        if (seen.has(key)) return { status: 500, body: 'duplicate key value violates unique constraint "orders_webhook"' };
        seen.add(key);
        return ACK;
      }
      case 'slow':
      case 'hangs':
      case 'no_ack':
        if (!hook.verified) return refuse;
        if (orderOf(hook) !== kind.order) return ACK;
        if (kind.kind !== 'no_ack') return { ...ACK, delayMs: kind.kind === 'slow' ? SLOW_MS : HANG_MS };
        if (kind.answer === 'status_500') return { status: 500, body: 'Internal Server Error' };
        if (kind.answer === 'plain_ok') return { status: 200, body: 'OK' };
        return { status: 200, body: '{"received":true}' };
      default:
        return hook.verified ? ACK : refuse;
    }
  };
}

export interface Verdict {
  journey: Journey;
  got: CorpusCode[];
  /** Codes not in the corpus's list (e.g. another rule's), reported beside. */
  other: string[];
  missing: CorpusCode[];
  extra: CorpusCode[];
  /** The calls made, for a disagreement's report. */
  calls: string[];
  /** How long it took, in ms. */
  ms: number;
  error?: string;
}

/** Plays one journey and reads its verdict from the account's report. */
export async function runJourney(
  url: string,
  receiver: Receiver,
  handlers: Map<string, ReturnType<typeof handlerOf>>,
  journey: Journey,
): Promise<Verdict> {
  const started = Date.now();
  const account = await createAccount(url, journey.mode, `corpus-${journey.index}`);
  const path = `/corpus/j${journey.index}`;
  handlers.set(path, handlerOf(journey.handler));
  const m = new Merchant(url, account, journey, `${receiver.origin}${path}`);
  let error: string | undefined;
  try {
    for (const e of journey.episodes) await play(m, e);
    await m.webhooksDone();
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  const query = journey.requireCoverage.length ? `&require_coverage=${journey.requireCoverage.join(',')}` : '';
  const report = await control(url, 'GET', `/report?account_id=${account.account_id}${query}`);
  const codes = [
    ...new Set(
      (report.findings as { code: string; account_id: string | null }[])
        .filter((f) => f.account_id === account.account_id)
        .map((f) => f.code),
    ),
  ];
  // The generator's claim of what each episode exercises, checked against the report's coverage.
  const unseen = (report.coverage as { scenario: string; account_id: string; seen: boolean }[])
    .filter((c) => c.account_id === account.account_id && !c.seen && (journey.requireCoverage as readonly string[]).includes(c.scenario))
    .map((c) => c.scenario);
  const meantUnseen = journey.defect?.code === 'coverage_missing' ? journey.requireCoverage.slice(-1) : [];
  if (!error && unseen.join() !== meantUnseen.join()) {
    error = `required coverage unseen: [${unseen.join(', ')}], meant unseen: [${meantUnseen.join(', ')}]`;
  }
  const known = new Set<string>(CORPUS_CODES);
  const got = codes.filter((c): c is CorpusCode => known.has(c)).sort();
  const expected = new Set(journey.expected);
  return {
    journey,
    got,
    other: codes.filter((c) => !known.has(c)),
    missing: journey.expected.filter((c) => !got.includes(c)),
    extra: got.filter((c) => !expected.has(c)),
    calls: m.log,
    ms: Date.now() - started,
    error,
  };
}

/** Plays the corpus, `concurrency` journeys at a time, over one receiver whose paths route to each journey's handler. */
export async function runCorpus(url: string, receiver: Receiver, journeys: Journey[], concurrency = 8): Promise<Verdict[]> {
  const handlers = new Map<string, ReturnType<typeof handlerOf>>();
  receiver.respond = (_n, hook) => (handlers.get(hook.path) ?? (() => ACK))(hook);
  const verdicts: Verdict[] = new Array<Verdict>(journeys.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < journeys.length) {
      const j = journeys[next++]!;
      verdicts[j.index] = await runJourney(url, receiver, handlers, j);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return verdicts;
}

export interface CodeScore {
  code: CorpusCode | 'all';
  expected: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
}

/** Precision and recall over (journey, code) pairs, per code and in all. */
export function score(verdicts: Verdict[]): CodeScore[] {
  const row = (code: CorpusCode | 'all', keep: (c: CorpusCode) => boolean): CodeScore => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    let expected = 0;
    for (const v of verdicts) {
      const exp = v.journey.expected.filter(keep);
      expected += exp.length;
      tp += v.got.filter((c) => keep(c) && exp.includes(c)).length;
      fp += v.extra.filter(keep).length;
      fn += v.missing.filter(keep).length;
    }
    return {
      code,
      expected,
      truePositives: tp,
      falsePositives: fp,
      falseNegatives: fn,
      precision: tp + fp === 0 ? 1 : tp / (tp + fp),
      recall: tp + fn === 0 ? 1 : tp / (tp + fn),
    };
  };
  return [...CORPUS_CODES.map((code) => row(code, (c) => c === code)), row('all', () => true)];
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** The table of precision and recall, then the careful and careless journeys' counts. */
export function formatScores(verdicts: Verdict[], seed: number): string {
  const rows = score(verdicts);
  const width = Math.max(...rows.map((r) => r.code.length));
  const lines = [
    `go-live corpus: ${verdicts.length} journeys, seed ${seed} (replay: CORPUS_SEED=${seed} CORPUS_SIZE=${verdicts.length} npm run corpus)`,
    `${'code'.padEnd(width)}  expected    TP    FP    FN  precision  recall`,
  ];
  for (const r of rows) {
    lines.push(
      `${r.code.padEnd(width)}  ${String(r.expected).padStart(8)}  ${String(r.truePositives).padStart(4)}  ${String(r.falsePositives).padStart(4)}  ${String(r.falseNegatives).padStart(4)}  ${pct(r.precision).padStart(9)}  ${pct(r.recall).padStart(6)}`,
    );
  }
  const slowest = [...verdicts].sort((a, b) => b.ms - a.ms).slice(0, 3);
  lines.push(`slowest journeys: ${slowest.map((v) => `${v.journey.index} (${(v.ms / 1000).toFixed(1)} s)`).join(', ')}`);
  const careful = verdicts.filter((v) => !v.journey.defect);
  lines.push(
    `careful journeys: ${careful.length}, with no finding: ${careful.filter((v) => v.got.length === 0).length}; careless: ${verdicts.length - careful.length}, exactly right: ${verdicts.filter((v) => v.journey.defect && v.missing.length === 0 && v.extra.length === 0).length}`,
  );
  return lines.join('\n');
}

/** Each disagreement (or journey that could not run), with what it takes to replay it. */
export function formatDisagreements(verdicts: Verdict[], seed: number): string {
  const wrong = verdicts.filter((v) => v.missing.length > 0 || v.extra.length > 0 || v.error);
  return wrong
    .map((v) => {
      const j = v.journey;
      return [
        `journey ${j.index} (seed ${seed}): ${j.defect ? `careless, defect ${j.defect.name}` : 'careful'}, ${j.mode} mode, handler ${JSON.stringify(j.handler)}`,
        `  expected [${j.expected.join(', ')}] got [${v.got.join(', ')}]${v.missing.length ? `  MISSING ${v.missing.join(', ')}` : ''}${v.extra.length ? `  FALSE ALARM ${v.extra.join(', ')}` : ''}${v.other.length ? `  (other codes: ${v.other.join(', ')})` : ''}`,
        ...(v.error ? [`  ERROR ${v.error}`] : []),
        ...(j.requireCoverage.length ? [`  require_coverage=${j.requireCoverage.join(',')}`] : []),
        ...j.episodes.map((e) => `  - ${JSON.stringify(e)}`),
        ...v.calls.map((c) => `    ${c}`),
      ].join('\n');
    })
    .join('\n');
}
