/**
 * The outbox and the dispatcher on a fake clock and a fake HTTP client (no socket): what is
 * queued and where it goes, signatures over the exact body, the acknowledgement rule, the
 * retry back-off to `failed`, one transaction's webhooks in order, the per-URL lanes, and the
 * bad-signature copy. The store is the real one, in memory.
 */
import { createPublicKey, randomUUID, verify } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_WEBHOOK_PRIVATE_KEY_PEM, DEMO_WEBHOOK_PUBLIC_KEY_PEM } from '../../../../src/core/credentials/demo-credentials.js';
import type { Transaction } from '../../../../src/features/transactions/entities.js';
import type { ChangeFeed } from '../../../../src/core/domain/ports.js';
import { openStore, type SqliteStore } from '../../../../src/sqlite-store.js';
import { Dispatcher } from '../../../../src/core/webhooks/dispatcher.js';
import { MAX_ATTEMPTS, retryDelaySeconds } from '../../../../src/core/webhooks/retries.js';
import { MAX_IN_FLIGHT_PER_URL } from '../../../../src/core/webhooks/lanes.js';
import { createOutbox } from '../../../../src/features/transactions/outbox.js';
import type { PostAnswer, WebhookPoster } from '../../../../src/core/webhooks/post.js';
import { createSigner } from '../../../../src/core/webhooks/signing.js';
import { Listeners } from '../../../../src/features/forwarder/listeners.js';
import type { AttemptMessage } from '../../../../src/features/forwarder/listen.schemas.js';
import { fakeClock, transactionEntity } from '../../../support/fakes.js';
import { deliveryResources } from '../../../../src/features/transactions/delivery-resources.js';

const ACK = JSON.stringify({ code: '200', message: 'SUCCESS' });
const publicKey = createPublicKey(DEMO_WEBHOOK_PUBLIC_KEY_PEM);

interface Post {
  url: string;
  headers: Record<string, string>;
  body: string;
  answer(status: number, text?: string): void;
}

/** An HTTP client that holds every POST until the test answers it (or answers at once with `auto`). */
function fakePoster(auto?: (post: Omit<Post, 'answer'>) => PostAnswer) {
  const waiting: Post[] = [];
  const all: Omit<Post, 'answer'>[] = [];
  const poster: WebhookPoster = {
    post(url, headers, body) {
      all.push({ url, headers, body });
      if (auto) return Promise.resolve(auto({ url, headers, body }));
      return new Promise((resolve) => {
        waiting.push({ url, headers, body, answer: (status, text = ACK) => resolve({ status, text, whole: true }) });
      });
    },
    close: () => undefined,
    abort: () => undefined,
  };
  return { poster, waiting, all };
}

const stores: SqliteStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

function setUp(poster: WebhookPoster, notificationUrl: string | undefined = 'http://merchant.test/webhooks') {
  const store = openStore(':memory:', (err) => {
    throw err;
  });
  stores.push(store);
  const { uow } = store;
  // The records the tests read and seed: the deliveries and the transactions.
  const repos = { deliveries: store.deliveries, transactions: store.stores.transactions };
  const clock = fakeClock();
  const feed: ChangeFeed = { emit: () => undefined };
  const errors: unknown[] = [];
  const dispatcher = new Dispatcher({
    clock,
    deliveries: repos.deliveries,
    resources: deliveryResources(repos.transactions),
    feed,
    sign: createSigner({ mode: 'rsa', privateKeyPem: DEMO_WEBHOOK_PRIVATE_KEY_PEM }),
    timeZone: 'UTC',
    timeoutMs: 10_000,
    onError: (err) => errors.push(err),
    poster,
  });
  const outbox = createOutbox({
    clock,
    uow,
    deliveries: repos.deliveries,
    transactions: repos.transactions,
    defaultNotificationUrl: notificationUrl,
    timeZone: 'UTC',
    onQueued: () => dispatcher.nudge(),
    onInserted: (id, at) => dispatcher.queued(id, at),
    webhookFaults: () => [],
  });
  /** A stored transaction that has just reached `status`. */
  const resolved = (overrides: Partial<Transaction> = {}): Transaction => {
    const tx = transactionEntity({ id: randomUUID(), status: 'SUCCEEDED', resolved_at: clock.nowMs(), ...overrides });
    repos.transactions.insert(tx);
    return tx;
  };
  const settle = (tx: Transaction) => uow.run(() => outbox.paymentOutcome(tx));
  /** Lets the dispatcher's promises run (signing, the lanes, recording an attempt). */
  const flush = async () => {
    for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
  };
  return { store, repos, uow, clock, dispatcher, outbox, resolved, settle, flush, errors };
}

describe('outbox', () => {
  it("queues a payment webhook to the transaction's own notification_url, else to the sandbox default", () => {
    const { poster } = fakePoster();
    const { repos, resolved, settle } = setUp(poster);
    const own = resolved({ notification_url: 'http://own.test/hook', external_identifier: 'order-7' });
    const other = resolved();
    settle(own);
    settle(other);
    expect(repos.deliveries.forResource(own.id).map((d) => [d.kind, d.url, d.status])).toEqual([
      ['payment', 'http://own.test/hook', 'pending'],
    ]);
    expect(repos.deliveries.forResource(other.id)[0]!.url).toBe('http://merchant.test/webhooks');
    expect(JSON.parse(repos.deliveries.forResource(own.id)[0]!.body)).toMatchObject({ merchant_transaction_id: 'order-7' });
  });

  it('a PENDING transaction has no payment webhook', () => {
    const { poster } = fakePoster();
    const { outbox, resolved } = setUp(poster);
    expect(() => outbox.paymentOutcome({ ...resolved(), status: 'PENDING' })).toThrow(/terminal status/);
  });

  it('queues nothing when the work that queued it is rolled back', async () => {
    const { poster, all } = fakePoster();
    const { repos, uow, outbox, resolved, flush } = setUp(poster);
    const tx = resolved();
    expect(() =>
      uow.run(() => {
        outbox.paymentOutcome(tx);
        throw new Error('the transition failed');
      }),
    ).toThrow('the transition failed');
    await flush();
    expect(repos.deliveries.forResource(tx.id)).toEqual([]);
    expect(all).toEqual([]);
  });
});

describe('dispatcher', () => {
  it('POSTs the exact body with a signature over its bytes; the acknowledgement makes it delivered', async () => {
    const { poster, waiting } = fakePoster();
    const { repos, resolved, settle, flush } = setUp(poster);
    const tx = resolved();
    settle(tx);
    await flush();
    expect(waiting).toHaveLength(1);
    const [post] = waiting;
    const stored = repos.deliveries.forResource(tx.id)[0]!;
    expect(post!.body).toBe(stored.body);
    expect(verify('sha256', Buffer.from(post!.body), publicKey, Buffer.from(post!.headers.signature!, 'base64'))).toBe(true);
    expect(post!.headers.timestamp).toMatch(/^\d{14}$/);
    post!.answer(200);
    await flush();
    expect(repos.deliveries.byId(stored.id)).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('a 2xx without the acknowledgement body is a failed attempt, retried 10 s, 20 s, ... later until MAX_ATTEMPTS, then failed', async () => {
    const { poster, all } = fakePoster(() => ({ status: 200, text: 'OK', whole: true }));
    const { repos, clock, dispatcher, resolved, settle, flush } = setUp(poster);
    const tx = resolved();
    settle(tx);
    await flush();
    const id = repos.deliveries.forResource(tx.id)[0]!.id;
    const delays: number[] = [];
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt += 1) {
      const row = repos.deliveries.byId(id)!;
      expect(row).toMatchObject({ status: 'pending', attempts: attempt });
      delays.push((row.next_attempt_at! - clock.nowMs()) / 1000);
      clock.set(row.next_attempt_at!);
      await dispatcher.runDue(clock.nowMs(), true);
    }
    expect(delays.slice(0, 4)).toEqual([10, 20, 40, 80]);
    expect(delays).toEqual(Array.from({ length: MAX_ATTEMPTS - 1 }, (_, n) => retryDelaySeconds(n + 1)));
    expect(repos.deliveries.byId(id)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, next_attempt_at: null });
    expect(all).toHaveLength(MAX_ATTEMPTS);
  });

  it("one transaction's webhooks go one at a time, in the order queued: the refund's waits for the payment's", async () => {
    const { poster, waiting } = fakePoster();
    const { repos, uow, outbox, resolved, settle, flush, clock } = setUp(poster);
    const tx = resolved();
    settle(tx);
    const now = clock.nowMs();
    repos.transactions.insertRefund({
      id: 'rf_1',
      transaction_id: tx.id,
      account_id: tx.account_id,
      amount: 100,
      currency: tx.currency,
      status: 'SUCCESS',
      reason: null,
      external_identifier: null,
      created_at: now,
      updated_at: now,
    });
    uow.run(() => outbox.refund(tx, repos.transactions.refundById('rf_1')!));
    await flush();
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.body).toBe(repos.deliveries.forResource(tx.id)[0]!.body);
    waiting[0]!.answer(200);
    await flush();
    expect(waiting).toHaveLength(2);
    expect(waiting[1]!.body).toBe(repos.deliveries.forResource('rf_1')[0]!.body);
  });

  it(`keeps at most ${MAX_IN_FLIGHT_PER_URL} deliveries under way to one URL; another URL does not wait for it`, async () => {
    const { poster, waiting } = fakePoster();
    const { resolved, settle, flush } = setUp(poster);
    for (let i = 0; i < MAX_IN_FLIGHT_PER_URL + 4; i += 1) settle(resolved({ notification_url: 'http://slow.test/hook' }));
    settle(resolved({ notification_url: 'http://fast.test/hook' }));
    await flush();
    const to = (host: string) => waiting.filter((p) => p.url.includes(host));
    expect(to('slow.test')).toHaveLength(MAX_IN_FLIGHT_PER_URL);
    expect(to('fast.test')).toHaveLength(1);
    to('slow.test')[0]!.answer(200);
    await flush();
    expect(to('slow.test')).toHaveLength(MAX_IN_FLIGHT_PER_URL + 1);
  });

  it('a bad_signature copy is signed over another body and attempted once, outside the order', async () => {
    const { poster, all } = fakePoster(() => ({ status: 401, text: 'bad signature', whole: true }));
    const { repos, outbox, resolved, settle, flush, clock, dispatcher } = setUp(poster);
    const tx = resolved();
    settle(tx);
    await flush();
    const [copy] = outbox.injectFault(tx.id, { kind: 'bad_signature' });
    await flush();
    const sent = all.find((p) => p.body === copy!.body && all.indexOf(p) > 0)!;
    expect(verify('sha256', Buffer.from(sent.body), publicKey, Buffer.from(sent.headers.signature!, 'base64'))).toBe(false);
    clock.set(clock.nowMs() + 3_600_000);
    await dispatcher.runDue(clock.nowMs(), true);
    expect(repos.deliveries.byId(copy!.id)).toMatchObject({ attempts: 1 });
    expect(repos.deliveries.byId(copy!.id)!.status).not.toBe('pending');
  });
});

describe('dispatcher with listeners (payment-sandbox listen)', () => {
  /** The dispatcher of `setUp` with the forwarder's listeners as its forwarding port; each message a listener gets is kept. */
  function withListeners(timeoutMs = 10_000, graceMs = 0) {
    const { poster, all } = fakePoster(() => ({ status: 200, text: ACK, whole: true }));
    const parts = setUp(poster);
    const listeners = new Listeners({ timeoutMs, graceMs, newId: randomUUID });
    parts.dispatcher.useForwarding(listeners);
    const taken: AttemptMessage[] = [];
    return { ...parts, listeners, taken, posted: all, sink: { send: (m: AttemptMessage) => void taken.push(m) } };
  }

  it("hands the attempt to a connected listener instead of POSTing it; the listener's report is the attempt's answer", async () => {
    const { repos, resolved, settle, flush, listeners, taken, posted, sink } = withListeners();
    listeners.connect(null, sink);
    const tx = resolved();
    settle(tx);
    await flush();
    expect(posted).toEqual([]);
    const stored = repos.deliveries.forResource(tx.id)[0]!;
    expect(taken).toHaveLength(1);
    expect(taken[0]).toMatchObject({ delivery_id: stored.id, number: 1, body: stored.body, url: stored.url });
    expect(verify('sha256', Buffer.from(taken[0]!.body), publicKey, Buffer.from(taken[0]!.headers.signature!, 'base64'))).toBe(true);
    expect(listeners.report(taken[0]!.id, { kind: 'answer', status: 200, text: ACK, whole: true, durationMs: 42 })).toBe(true);
    await flush();
    expect(repos.deliveries.byId(stored.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(repos.deliveries.attemptsOf(stored.id)[0]).toMatchObject({ response_status: 200, ok: true, duration_ms: 42 });
  });

  it('a listener that disconnects mid-attempt fails it as a network error; the retry goes directly once none is connected', async () => {
    const { repos, clock, dispatcher, resolved, settle, flush, listeners, taken, posted, sink } = withListeners();
    const listener = listeners.connect(null, sink);
    const tx = resolved();
    settle(tx);
    await flush();
    expect(taken).toHaveLength(1);
    listener.disconnect();
    await flush();
    const id = repos.deliveries.forResource(tx.id)[0]!.id;
    const row = repos.deliveries.byId(id)!;
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(repos.deliveries.attemptsOf(id)[0]).toMatchObject({
      ok: false,
      response_status: null,
      error: 'the listener disconnected before reporting an answer',
    });
    expect(listeners.report(taken[0]!.id, { kind: 'answer', status: 200, text: ACK, whole: true, durationMs: 1 })).toBe(false);
    clock.set(row.next_attempt_at!);
    await dispatcher.runDue(clock.nowMs(), true);
    expect(posted).toHaveLength(1);
    expect(repos.deliveries.byId(id)).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('a report that does not come within the delivery timeout fails the attempt as timed out', async () => {
    const { repos, resolved, settle, flush, listeners, taken, sink } = withListeners(20);
    listeners.connect(null, sink);
    const tx = resolved();
    settle(tx);
    await flush();
    expect(taken).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 40));
    await flush();
    const id = repos.deliveries.forResource(tx.id)[0]!.id;
    expect(repos.deliveries.byId(id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(repos.deliveries.attemptsOf(id)[0]!.error).toMatch(/^no answer within 0.02 s/);
  });

  it("a listener of one account does not take another account's deliveries", async () => {
    const { resolved, settle, flush, listeners, taken, posted, sink } = withListeners();
    listeners.connect('another-account', sink);
    settle(resolved());
    await flush();
    expect(taken).toEqual([]);
    expect(posted).toHaveLength(1);
  });
});
