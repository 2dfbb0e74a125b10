/**
 * What the conformance checks share: the check's shape, a direct card payment body with the
 * spec's success card, and assertions on pages and records.
 */
import { randomUUID } from 'node:crypto';
import { Client, expectStatus, expectThat, expectType, expectValue, fail, valueAt } from './client.js';
import type { Exchange } from './report.js';

/** What a check needs beside the direct account: without it the check is skipped. */
export type CheckNeed = 'checkout' | 'restricted_key';

export interface Check {
  name: string;
  rule: string;
  needs?: CheckNeed;
  run(client: Client): Promise<void>;
}

/** The spec's success card: a direct card payment with it reaches SUCCEEDED without a customer. */
const SUCCESS_CARD = '4242424242424242';
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

export function cardPayment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 1050,
    currency: 'USD',
    description: 'conformance check',
    customer: { email: 'conformance@example.com', name: 'Conformance Check' },
    external_identifier: `conformance-${randomUUID().slice(0, 8)}`,
    payment_method: { type: 'card', number: SUCCESS_CARD, expiration_date: '12/30', security_code: '123' },
    browser_info: {
      javascript_enabled: true,
      java_enabled: false,
      language: 'en-US',
      color_depth: 24,
      screen_height: 800,
      screen_width: 1280,
      time_zone_offset: 0,
      user_agent: 'payment-sandbox conformance',
      user_device: 'desktop',
      accept_header: 'application/json',
    },
    ...overrides,
  };
}

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The first JSON pointer (relative to `pointer`) where two JSON values differ, or null when they are equal. */
export function firstDifference(a: unknown, b: unknown, pointer = ''): string | null {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
  if (!isObject(a) || !isObject(b) || Array.isArray(a) !== Array.isArray(b))
    return JSON.stringify(a) === JSON.stringify(b) ? null : pointer;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const key of keys) {
    const at = firstDifference(a[key], b[key], `${pointer}/${escapePointer(key)}`);
    if (at !== null) return at;
  }
  return null;
}

/** A replay answers the stored first answer: the same status and every field of the body equal. */
export function expectSameAnswer(replay: Exchange, first: Exchange): void {
  expectStatus(replay, first.response.status);
  const at = firstDifference(first.response.body, replay.response.body, '/body');
  if (at !== null)
    fail(
      replay,
      at,
      JSON.stringify(valueAt(first.response, at)) ?? 'missing',
      `${at} differs from the first answer for this key: a replay answers the stored first answer, every field equal`,
    );
}

export const idOf = (ex: Exchange): string => String(valueAt(ex.response, '/body/id'));
export const itemIds = (ex: Exchange): string[] =>
  ((valueAt(ex.response, '/body/items') as { id?: unknown }[] | undefined) ?? []).map((i) => String(i.id));

export async function createPayment(
  client: Client,
  overrides: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Exchange> {
  const ex = await client.request('POST', '/transactions', { body: cardPayment(overrides), headers });
  expectStatus(ex, 201);
  expectType(ex, '/body/id', 'string');
  return ex;
}

/** Creates a payment and waits (up to 10 s) until it is SUCCEEDED. */
export async function succeededPayment(client: Client, amount = 1050): Promise<Exchange> {
  return untilSucceeded(client, await createPayment(client, { amount }));
}

/** Reads the payment `created` answered until it is SUCCEEDED (up to 10 s); resolves with the last answer. */
export async function untilSucceeded(client: Client, created: Exchange): Promise<Exchange> {
  let last = created;
  for (let i = 0; i < 50; i += 1) {
    if (valueAt(last.response, '/body/status') === 'SUCCEEDED') return last;
    await new Promise((r) => setTimeout(r, 200));
    last = await client.request('GET', `/transactions/${idOf(created)}`);
  }
  return fail(last, '/body/status', '"SUCCEEDED"', 'a direct card payment with the success card did not reach SUCCEEDED within 10 s');
}

export function expectPage(ex: Exchange, limit: number): void {
  expectStatus(ex, 200);
  expectType(ex, '/body/items', 'array');
  expectValue(ex, '/body/limit', limit);
  expectType(ex, '/body/next_cursor', 'string', 'null');
  expectType(ex, '/body/previous_cursor', 'string', 'null');
  const n = (valueAt(ex.response, '/body/items') as unknown[]).length;
  expectThat(n <= limit, ex, '/body/items', `at most ${limit} items`, `the page holds ${n} items, more than limit ${limit}`);
}

export function expectNoRepeats(pages: Exchange[]): void {
  const seen = new Set<string>();
  for (const page of pages) {
    itemIds(page).forEach((id, i) => {
      expectThat(
        !seen.has(id),
        page,
        `/body/items/${i}/id`,
        'a record not on an earlier page',
        `record ${id} repeats a record of an earlier page`,
      );
      seen.add(id);
    });
  }
}

export const cursorPath = (list: string, cursor: unknown, limit: number): string =>
  `${list}?limit=${limit}&cursor=${encodeURIComponent(String(cursor))}`;

export function expectRecordFields(ex: Exchange, base: string): void {
  expectType(ex, `${base}/id`, 'string');
  expectType(ex, `${base}/amount`, 'integer');
  expectType(ex, `${base}/currency`, 'string');
  expectType(ex, `${base}/status`, 'string');
  expectType(ex, `${base}/created_at`, 'string');
  const created = valueAt(ex.response, `${base}/created_at`);
  expectThat(
    typeof created === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$/.test(created),
    ex,
    `${base}/created_at`,
    'ISO 8601 with milliseconds and offset',
    'created_at is not ISO 8601 with milliseconds and offset',
  );
}
