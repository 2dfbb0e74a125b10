/**
 * In-memory fakes for the dispatcher's parts: a deliveries table (the queries the parts use,
 * in the store's order), a transactions table of refunds, a manual real-time and an HTTP
 * client that holds each POST until the test answers it.
 */
import type { Delivery } from '../../../../src/core/domain/entities.js';
import type { Refund } from '../../../../src/features/transactions/entities.js';
import type { DeliveriesRepo } from '../../../../src/core/domain/ports.js';
import type { DeliveryResources } from '../../../../src/core/webhooks/ordering.js';
import type { RealTime } from '../../../../src/core/webhooks/crash-backoff.js';
import type { PostAnswer, WebhookPoster } from '../../../../src/core/webhooks/post.js';

export const ACK = JSON.stringify({ code: '200', message: 'SUCCESS' });
const T0 = Date.UTC(2026, 10, 22, 10);

let seq = 0;
export function delivery(overrides: Partial<Delivery> = {}): Delivery {
  seq += 1;
  return {
    seq,
    id: `dl_${seq}`,
    account_id: 'acc_1',
    kind: 'payment',
    resource_id: 'tx_1',
    url: 'http://merchant.test/hook',
    body: `{"n":${seq}}`,
    signature: null,
    status: 'pending',
    attempts: 0,
    simulated_failures: 0,
    simulated_failure_status: 500,
    fault: null,
    next_attempt_at: T0,
    created_at: T0,
    updated_at: T0,
    delivered_at: null,
    ...overrides,
  };
}

type FakeRepo = Pick<
  DeliveriesRepo,
  | 'byId'
  | 'forResource'
  | 'pendingInOrder'
  | 'headInOrder'
  | 'postpone'
  | 'setSignature'
  | 'due'
  | 'dueHeadIds'
  | 'dueBetween'
  | 'nextDue'
  | 'pendingAfter'
>;

export function fakeDeliveries(
  ...initial: Delivery[]
): FakeRepo & { rows: Delivery[]; postponed: [string, number][]; failPostpone: boolean } {
  const rows = [...initial];
  const pending = () =>
    rows
      .filter((d) => d.status === 'pending' && d.next_attempt_at !== null)
      .sort((a, b) => a.next_attempt_at! - b.next_attempt_at! || a.seq - b.seq);
  const repo = {
    rows,
    postponed: [] as [string, number][],
    failPostpone: false,
    byId: (id: string) => rows.find((d) => d.id === id),
    forResource: (id: string) => rows.filter((d) => d.resource_id === id).sort((a, b) => a.seq - b.seq),
    pendingInOrder: (key: string) => rows.filter((d) => d.order_key === key && d.status === 'pending').sort((a, b) => a.seq - b.seq),
    headInOrder: (key: string) =>
      rows
        .filter((d) => d.order_key === key && d.status === 'pending' && d.next_attempt_at !== null && d.fault !== 'bad_signature')
        .sort((a, b) => a.seq - b.seq)[0],
    postpone(id: string, atMs: number) {
      if (repo.failPostpone) throw new Error('SQLITE_FULL: database or disk is full');
      repo.postponed.push([id, atMs]);
      rows.find((d) => d.id === id)!.next_attempt_at = atMs;
    },
    setSignature(id: string, signature: string) {
      rows.find((d) => d.id === id)!.signature = signature;
    },
    due: (nowMs: number) => pending().filter((d) => d.next_attempt_at! <= nowMs),
    dueHeadIds: (nowMs: number) =>
      pending()
        .filter((d) => d.next_attempt_at! <= nowMs)
        .filter((d) => (d.order_key ?? null) === null || d.fault === 'bad_signature' || repo.headInOrder(d.order_key!)?.id === d.id)
        .map((d) => d.id),
    dueBetween: (fromMs: number, nowMs: number) => pending().filter((d) => d.next_attempt_at! >= fromMs && d.next_attempt_at! <= nowMs),
    nextDue: () => pending()[0]?.next_attempt_at ?? null,
    pendingAfter: (afterMs: number) => pending().filter((d) => d.next_attempt_at! > afterMs),
  };
  return repo;
}

export function fakeRefunds(...refunds: Pick<Refund, 'id' | 'transaction_id'>[]): DeliveryResources {
  return {
    paymentOf: (id) => refunds.find((r) => r.id === id)?.transaction_id,
    refundsOf: (transactionId) => refunds.filter((r) => r.transaction_id === transactionId).map((r) => r.id),
  };
}

/** Real time that moves only when the test says; timers fire on `advance` (or by hand with `fire`). */
export function fakeRealTime(): RealTime & { advance(ms: number): void; fire(): void; timers: { at: number; fn: () => void }[] } {
  let now = 1000;
  const timers: { at: number; fn: () => void }[] = [];
  const run = (due: (t: { at: number }) => boolean) => {
    for (const timer of timers.filter(due)) {
      timers.splice(timers.indexOf(timer), 1);
      timer.fn();
    }
  };
  return {
    timers,
    now: () => now,
    after(ms, fn) {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return () => void timers.splice(timers.indexOf(timer) >>> 0, timers.includes(timer) ? 1 : 0);
    },
    advance(ms) {
      now += ms;
      run((t) => t.at <= now);
    },
    /** Fires every timer now, before real time reaches its end (as a libuv timer may). */
    fire: () => run(() => true),
  };
}

export interface HeldPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  answer(status: number, text?: string): void;
  fail(err: Error): void;
}

/** An HTTP client that holds every POST until the test answers it. */
export function fakePoster(): WebhookPoster & { waiting: HeldPost[] } {
  const waiting: HeldPost[] = [];
  return {
    waiting,
    post(url, headers, body) {
      return new Promise<PostAnswer>((resolve, reject) => {
        waiting.push({ url, headers, body, answer: (status, text = ACK) => resolve({ status, text, whole: true }), fail: reject });
      });
    },
    close: () => undefined,
    abort: () => undefined,
  };
}

/** Lets pending promise chains run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
}
