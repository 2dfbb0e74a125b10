/**
 * The kit's HTTP client and assertions: every request goes to the target's `/v4` base and is
 * recorded as an exchange; an assertion that does not hold throws `CheckFailed` naming the
 * JSON pointer into the answer document `{status, headers, body}`.
 */
import { ANSWER_LIMIT_TEXT, readBoundedText } from './answer-body.js';
import { packageVersion } from '../../core/config.js';
import { CONFORMANCE_USER_AGENT_PRODUCT } from '../../core/sandbox-client.js';
import type { ConformanceTarget, Exchange } from './report.js';

/** The server could not be reached or did not answer HTTP: the run stops (exit 2). */
export class ConformanceConnectionError extends Error {
  override name = 'ConformanceConnectionError';
}

/** An assertion of a check that does not hold. */
export class CheckFailed extends Error {
  constructor(
    message: string,
    readonly pointer: string,
    readonly expected: string,
    readonly actual: unknown,
    readonly exchange: Exchange | null,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  body?: unknown;
  /** A body sent as is (not JSON-encoded). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Replace the credentials headers entirely. */
  auth?: Record<string, string>;
}

/** Reads the value at a JSON pointer. */
export function valueAt(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let at: unknown = document;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** The JSON type of a value: integer, number, string, boolean, null, array, object, or missing. */
export function jsonType(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

export class Client {
  /** Every exchange of the current check, in order. */
  readonly exchanges: Exchange[] = [];

  constructor(readonly target: ConformanceTarget) {}

  credentials(): Record<string, string> {
    return { authorization: `Bearer ${this.target.apiKey}`, 'x-merchant-account-id': this.target.accountId };
  }

  /** The headers of the checkout-mode account (a check that needs it is skipped when it is not given). */
  checkoutCredentials(): Record<string, string> {
    const checkout = this.target.checkout;
    if (!checkout) throw new Error('no checkout-mode account given');
    return { authorization: `Bearer ${checkout.apiKey}`, 'x-merchant-account-id': checkout.accountId };
  }

  /** The headers of the restricted key, with the direct account it belongs to. */
  restrictedCredentials(): Record<string, string> {
    if (this.target.restrictedApiKey === undefined) throw new Error('no restricted key given');
    return { authorization: `Bearer ${this.target.restrictedApiKey}`, 'x-merchant-account-id': this.target.accountId };
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Exchange> {
    const base = this.target.url.replace(/\/+$/, '');
    // Every request names the kit, so a sandbox's go-live report does not count it as the merchant's.
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `${CONFORMANCE_USER_AGENT_PRODUCT}/${packageVersion()}`,
      ...(options.auth ?? this.credentials()),
      ...options.headers,
    };
    let payload: string | undefined;
    if (options.rawBody !== undefined) payload = options.rawBody;
    else if (options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    let text: string | null; // null: the answer is larger than the kit reads
    try {
      res = await fetch(base + path, { method, headers, body: payload, signal: AbortSignal.timeout(15_000) });
      text = await readBoundedText(res);
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new ConformanceConnectionError(
        `${method} ${base}${path}: ${cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err))}`,
      );
    }
    let body: unknown = text;
    try {
      body = text === '' || text === null ? null : JSON.parse(text);
    } catch {
      // not JSON: kept as text, and the checks say so
    }
    const responseHeaders: Record<string, string> = {};
    for (const name of ['content-type', 'idempotent-replayed']) {
      const value = res.headers.get(name);
      if (value !== null) responseHeaders[name] = value;
    }
    const exchange: Exchange = {
      request:
        options.rawBody !== undefined
          ? { method, path, body: options.rawBody }
          : options.body === undefined
            ? { method, path }
            : { method, path, body: options.body },
      response: { status: res.status, headers: responseHeaders, body },
    };
    this.exchanges.push(exchange);
    if (text === null)
      fail(
        exchange,
        '/body',
        `at most ${ANSWER_LIMIT_TEXT}`,
        `the answer is larger than ${ANSWER_LIMIT_TEXT}, all the kit reads of an answer`,
      );
    return exchange;
  }
}

const answer = (ex: Exchange): unknown => ex.response;
const show = (v: unknown): string => (v === undefined ? 'missing' : JSON.stringify(v));

/** Fails with `message` at `pointer` of the exchange's answer. */
export function fail(ex: Exchange | null, pointer: string, expected: string, message: string): never {
  throw new CheckFailed(message, pointer, expected, ex === null ? undefined : valueAt(answer(ex), pointer), ex);
}

/** The value at `pointer` equals `expected`. */
export function expectValue(ex: Exchange, pointer: string, expected: unknown): void {
  const actual = valueAt(answer(ex), pointer);
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    fail(ex, pointer, show(expected), `${pointer} is ${show(actual)}, expected ${show(expected)}`);
}

/** The value at `pointer` has one of the JSON types. */
export function expectType(ex: Exchange, pointer: string, ...types: string[]): void {
  const actual = jsonType(valueAt(answer(ex), pointer));
  if (!types.includes(actual)) fail(ex, pointer, types.join(' or '), `${pointer} is ${actual}, expected ${types.join(' or ')}`);
}

export function expectStatus(ex: Exchange, status: number): void {
  expectValue(ex, '/status', status);
}

/** The answer is the spec's error envelope with this status and code, and a detail for each `{pointer, location}`. */
export function expectError(ex: Exchange, status: number, code: string, details: { pointer: string; location: string }[] = []): void {
  expectStatus(ex, status);
  expectValue(ex, '/body/type', 'error');
  expectValue(ex, '/body/code', code);
  expectValue(ex, '/body/status', status);
  expectType(ex, '/body/message', 'string');
  expectType(ex, '/body/details', 'array', 'missing');
  const list = valueAt(answer(ex), '/body/details');
  const items = Array.isArray(list) ? (list as unknown[]) : [];
  items.forEach((_, i) => {
    for (const field of ['type', 'pointer', 'message', 'location']) expectType(ex, `/body/details/${i}/${field}`, 'string');
  });
  for (const want of details) {
    const found = items.some((d) => valueAt(d, '/pointer') === want.pointer && valueAt(d, '/location') === want.location);
    if (!found)
      fail(
        ex,
        '/body/details',
        `a detail with pointer ${show(want.pointer)} at location ${show(want.location)}`,
        `no detail with pointer ${show(want.pointer)} at location ${show(want.location)}`,
      );
  }
}

/** The condition holds, else a failure at `pointer`. */
export function expectThat(condition: boolean, ex: Exchange, pointer: string, expected: string, message: string): void {
  if (!condition) fail(ex, pointer, expected, message);
}
