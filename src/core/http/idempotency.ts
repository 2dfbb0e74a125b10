/**
 * Idempotent requests (spec: Idempotency rules 1-7). `idempotency(deps)`
 * makes one app's `idempotent`; a create handler wraps its work in `idempotent(c, status, run)` after validation, so a request that fails validation
 * stores nothing. Keys are per merchant account, expire after 24 hours on the sandbox clock,
 * and "the same request" means the same method, path and JSON body (key order ignored).
 */
import { hash } from 'node:crypto';
import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Clock } from '../clock/clock.js';
import type { TimedWork } from '../clock/timed-work.js';
import { SandboxError, badRequest } from '../domain/errors.js';
import type { ApiEnv } from './env.js';
import { exchangeOf } from './exchange.js';
import type { IdempotencyRecord, IdempotencyRepo } from './ports.js';
import { errorBody } from './errors.js';
import { redactText } from './redact.js';
import { holdsSecret } from '../redaction/secrets.js';

export const IDEMPOTENCY_KEY_MAX = 255;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * How many characters an `Idempotency-Key` holds (spec, rule 1: "up to 255 characters").
 * A header reaches the app as bytes, one character per byte: a key whose bytes are UTF-8 is
 * counted once decoded, so 128 "é" (256 bytes) is 128 characters. Characters are code points.
 */
export function idempotencyKeyLength(key: string): number {
  let widest = 0;
  for (let i = 0; i < key.length; i++) widest = Math.max(widest, key.charCodeAt(i));
  if (widest < 0x80) return key.length;
  let text = key;
  if (widest <= 0xff) {
    try {
      text = UTF8.decode(Buffer.from(key, 'latin1'));
    } catch {
      // bytes that are not UTF-8: each byte is a character
    }
  }
  return [...text].length;
}
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * JSON with object keys sorted at every depth, so key order does not change a fingerprint.
 * Keys sort by UTF-16 code units (`Array#sort`'s default order); the text is the one stored
 * fingerprints were made from, so keys recorded before an upgrade still match.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return out + ']';
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    out += (i === 0 ? '' : ',') + JSON.stringify(key) + ':' + canonicalJson(record[key]);
  }
  return out + '}';
}

/**
 * The canonical JSON of the request's parsed body (`null` without one), made once per request:
 * the idempotency fingerprint and the go-live report's read the same text.
 */
export function canonicalBody(c: Context<ApiEnv>): string {
  let text = c.get('canonicalBody');
  if (text === undefined) {
    text = canonicalJson(c.get('body') ?? null);
    c.set('canonicalBody', text);
  }
  return text;
}

/**
 * The key as the database keeps it: the key itself, or, when it holds card data (a card
 * number, a security code) or a secret (an API key, a JWT), its SHA-256 digest, so the card data is never stored while the
 * same key still finds the same record.
 */
function storedKey(key: string): string {
  return redactText(key) === key && !holdsSecret(key) ? key : `sha256:${hash('sha256', key, 'hex')}`;
}

/** What `idempotency` needs: the stored keys, the sandbox clock (keys expire on it) and its unit of work. */
export interface IdempotencyDeps {
  records: IdempotencyRepo;
  clock: Pick<Clock, 'nowMs'>;
  /** Runs `work` in one unit of work (`Core.atomically`): a create and its key commit together. */
  atomically<T>(work: () => T): T;
}

/**
 * Runs a create once per `Idempotency-Key` and answers `status` with the JSON that `run`
 * returns. Replays the stored status and body with `Idempotent-Replayed: true`; 409
 * `concurrent_request` while the first is still running (whatever the body); then 400 for a
 * key reused with another request.
 * Without a key, just runs. Async only when the work waits (`--latency`, a run that yields):
 * a create answers without a promise of its own.
 */
export type Idempotent = <T, S extends ContentfulStatusCode>(
  c: Context<ApiEnv>,
  status: S,
  run: () => T | Promise<T>,
) => TypedResponse<T, S, 'json'> | Promise<TypedResponse<T, S, 'json'>>;

/** The headers of an answer sent from its JSON text, and of a replay (read, never changed: one object for every answer). */
const ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });
const REPLAYED_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json',
  'idempotent-replayed': 'true',
});

/** The `idempotent` of one app, over its keys. */
export function idempotency({ records: store, clock, atomically }: IdempotencyDeps): Idempotent {
  return <T, S extends ContentfulStatusCode>(
    c: Context<ApiEnv>,
    status: S,
    run: () => T | Promise<T>,
  ): TypedResponse<T, S, 'json'> | Promise<TypedResponse<T, S, 'json'>> => {
    const exchange = exchangeOf(c);
    const key = c.req.header('idempotency-key');
    if (key === undefined) {
      const answer = (value: T): TypedResponse<T, S, 'json'> => {
        exchange.answered = value;
        return c.json(value, status) as unknown as TypedResponse<T, S, 'json'>;
      };
      const value = run();
      return isPromise(value) ? value.then(answer) : answer(value);
    }
    const length = idempotencyKeyLength(key);
    if (length === 0 || length > IDEMPOTENCY_KEY_MAX) {
      throw badRequest(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`, [
        {
          type: 'length_error',
          pointer: '/idempotency-key',
          message: `Must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`,
          location: 'header',
        },
      ]);
    }
    const accountId = c.get('account').id;
    const stored = storedKey(key);
    // A key found free of card data and secrets is logged as it is: the request log does not scan it again.
    if (stored === key) exchange.idempotencyKey = key;
    // One-shot: no Hash object per request.
    const fingerprint = hash('sha256', `${c.req.method} ${c.req.path}\n${canonicalBody(c)}`, 'hex');
    c.set('requestFingerprint', fingerprint);
    const now = clock.nowMs();
    // The stored response is the one the route declares; it is sent again byte for byte.
    const send = (code: number, json: string, replayed: boolean): TypedResponse<T, S, 'json'> =>
      new Response(json, { status: code, headers: replayed ? REPLAYED_HEADERS : ANSWER_HEADERS }) as unknown as TypedResponse<T, S, 'json'>;

    /** The key's record when it is in force (a record past its 24 h is absent). */
    const inForce = (): IdempotencyRecord | undefined => {
      const found = store.get(accountId, stored);
      return found && found.created_at + IDEMPOTENCY_TTL_MS > now ? found : undefined;
    };
    /** The answer to a request whose key is in force: a replay, or the refusal its rules give. */
    const answerOf = (existing: IdempotencyRecord): TypedResponse<T, S, 'json'> => {
      // Rules 5 and 6 overlap when another request arrives while the first still runs: rule 5
      // wins, whatever the body (README "Where the spec is silent or ambiguous"). Until the
      // first has an answer, the key is not yet "used": a first request that ends in a 5xx
      // stores nothing and frees it, so only 409 "retry later" is true in every case.
      if (existing.state === 'processing') {
        throw new SandboxError(
          409,
          'concurrent_request',
          `A request with the idempotency key "${key}" is still being processed; retry later`,
        );
      }
      if (existing.fingerprint !== fingerprint) {
        throw badRequest(`The idempotency key "${key}" is already in use with a different request`, [
          { type: 'value_error', pointer: '/idempotency-key', message: 'Key already used with a different request', location: 'header' },
        ]);
      }
      exchange.replayed = true;
      return send(existing.response_status ?? 200, existing.response_body ?? 'null', true);
    };

    // Execution started: a failure is the stored first response (rule 2), unless it is a 5xx or
    // not the sandbox's own error (nothing was stored: a retry runs again).
    const failure = (err: unknown): { status: number; json: string } => {
      if (!(err instanceof SandboxError) || err.status >= 500) throw err;
      return { status: err.status, json: JSON.stringify(errorBody(err)) };
    };

    const latency = exchange.latency;
    let running: Promise<T> | undefined;
    if (latency === undefined) {
      // No artificial latency: run at once. A run that finishes without yielding (every create
      // does) is stored with its answer in one write, in the same unit of work as what it
      // created: both commit together (a crash never keeps a resource without its key, whose
      // retry would create it twice), and no other request ran in between to see a claim.
      // The key is looked up in the same transaction: one BEGIN…COMMIT for the lookup, the
      // create, its record and its log entry.
      let done: { status: number; json: string } | undefined;
      let existing: IdempotencyRecord | undefined;
      // What the log entry takes from the request is made first: the unit runs its statements back to back.
      exchange.prepareLog?.();
      try {
        done = atomically(() => {
          existing = inForce();
          if (existing) return undefined;
          const value = run();
          if (isPromise(value)) {
            running = value;
            return undefined;
          }
          // The value is noted on the request, so the request log's subscribers need not parse the answer.
          exchange.answered = value;
          const json = JSON.stringify(value);
          store.record(accountId, stored, fingerprint, now, status, json);
          // The request log's entry, its answer known: the record, its key and the entry commit together.
          exchange.logInUnit?.(status);
          return { status, json };
        });
      } catch (err) {
        done = failure(err); // rolled back; the refusal is the stored first response
        store.record(accountId, stored, fingerprint, now, done.status, done.json);
      }
      if (existing) return answerOf(existing);
      if (done) return send(done.status, done.json, false);
    } else {
      const existing = inForce();
      if (existing) return answerOf(existing);
    }

    store.claim(accountId, stored, fingerprint, now);
    // The work waits (the latency, or a run that yields): the key stays claimed until it is done.
    const completed = async (): Promise<TypedResponse<T, S, 'json'>> => {
      let result: { status: number; json: string };
      try {
        await latency; // the artificial processing time is spent while the key is claimed
        const value = await (running ?? run());
        exchange.answered = value;
        result = { status, json: JSON.stringify(value) };
      } catch (err) {
        try {
          result = failure(err);
        } catch {
          store.release(accountId, stored);
          throw err;
        }
      }
      store.complete(accountId, stored, result.status, result.json);
      return send(result.status, result.json, false);
    };
    return completed();
  };
}

/**
 * Expired keys are deleted off the request path, as the scheduler's upkeep on the sandbox clock
 * (`idempotencyExpiry`, run by the real-time ticker, not a step of an advance): while any key is kept, every `SWEEP_INTERVAL_MS` up to `SWEEP_BATCH`
 * keys created more than 24 h before are deleted (at once again while a batch comes back full),
 * so the table holds about a day of keys and no create pays for a sweep. A key past its 24 h
 * is already treated as absent when it is looked up, before the sweep deletes it.
 */
export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
const SWEEP_BATCH = 2_000;

/** The expiry sweep of one database's keys, registered as its scheduler's upkeep. */
export function idempotencyExpiry({
  records,
  clock,
}: {
  records: Pick<IdempotencyRepo, 'deleteExpired' | 'hasKeys'>;
  clock: Pick<Clock, 'nowMs'>;
}): TimedWork {
  /** The next sweep's instant, or null when no key was kept when last asked. */
  let next: number | null = null;
  return {
    name: 'idempotency key expiry',
    nextDueMs() {
      // Keys first seen: swept at once (an advance may already have aged them), then every interval.
      if (next === null && records.hasKeys()) next = clock.nowMs();
      return next;
    },
    runDue(nowMs) {
      const deleted = records.deleteExpired(nowMs - IDEMPOTENCY_TTL_MS, SWEEP_BATCH);
      next = deleted === SWEEP_BATCH ? nowMs : records.hasKeys() ? nowMs + SWEEP_INTERVAL_MS : null;
    },
  };
}

const isPromise = <T>(value: T | Promise<T>): value is Promise<T> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
