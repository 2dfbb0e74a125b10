/**
 * Load rehearsal: what a provider's sandbox would not allow a merchant to try. `--rate-limit N`
 * allows N /v4 requests per second per account (a token bucket holding N, refilled at N a
 * second) and answers the rest 429 in the spec's envelope with `Retry-After`; `--latency`
 * adds a fixed time (`MS`) or a log-normal distribution through two points
 * (`p50=MS,p99=MS`) to each /v4 call. Both can be set per account
 * (`PATCH /_sandbox/accounts/{id}`); an account without its own settings has the options'.
 * A request spends an account's tokens only once it authenticates as that account: a client
 * naming an account without its key never exhausts that account's budget.
 */
import type { Context } from 'hono';
import { SandboxError } from '../domain/errors.js';
import { errorBody } from './errors.js';

/** The longest latency any call gets, in milliseconds (the --latency option's own limit). */
export const MAX_LATENCY_MS = 60_000;

/** A call's added time: the median and the 99th percentile (equal: a fixed time). */
export interface LatencyDistribution {
  p50Ms: number;
  p99Ms: number;
}

/** An account's load settings: requests per second (0: no limit) and the latency. */
export interface LoadSettings {
  rateLimit: number;
  latency: LatencyDistribution;
}

/** The z-score of the 99th percentile of a standard normal distribution. */
const Z99 = 2.326347874040841;

/**
 * Reads `MS` (a fixed time) or `p50=MS,p99=MS` (either order, p99 at least p50).
 * @throws RangeError with a message naming what is wrong.
 */
export function parseLatency(value: string | number): LatencyDistribution {
  if (typeof value === 'number' || /^\s*\d+(\.\d+)?\s*$/.test(value)) {
    const ms = Number(value);
    if (!Number.isFinite(ms) || ms < 0 || ms > MAX_LATENCY_MS) throw new RangeError(`must be 0 to ${MAX_LATENCY_MS} ms`);
    return { p50Ms: ms, p99Ms: ms };
  }
  const parts = new Map<string, number>();
  for (const part of value.split(',')) {
    const match = /^\s*(p50|p99)\s*=\s*(\d+(?:\.\d+)?)\s*$/i.exec(part);
    if (!match) throw new RangeError('must be milliseconds (250) or p50=MS,p99=MS (p50=80,p99=900)');
    parts.set(match[1]!.toLowerCase(), Number(match[2]));
  }
  const p50 = parts.get('p50');
  const p99 = parts.get('p99');
  if (p50 === undefined || p99 === undefined) throw new RangeError('must give both p50=MS and p99=MS');
  if (p99 < p50) throw new RangeError('p99 must be at least p50');
  if (p99 > MAX_LATENCY_MS) throw new RangeError(`must be at most ${MAX_LATENCY_MS} ms`);
  if (p50 === 0 && p99 > 0) throw new RangeError('p50 must be more than 0 when p99 is');
  return { p50Ms: p50, p99Ms: p99 };
}

/** `250`, or `p50=80,p99=900`: how the options and the control API write a latency. */
export function latencyText(latency: LatencyDistribution): string {
  return latency.p50Ms === latency.p99Ms ? String(latency.p50Ms) : `p50=${latency.p50Ms},p99=${latency.p99Ms}`;
}

/** A standard normal draw (Box–Muller) from uniform draws in [0, 1). */
function standardNormal(random: () => number): number {
  const u = 1 - random(); // (0, 1]: log(0) never
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * One call's latency: the fixed time, or a log-normal draw whose median is p50 and whose 99th
 * percentile is p99 (capped at `MAX_LATENCY_MS`).
 */
export function sampleLatency(latency: LatencyDistribution, random: () => number = Math.random): number {
  const { p50Ms, p99Ms } = latency;
  if (p50Ms <= 0 || p99Ms === p50Ms) return p50Ms;
  const sigma = Math.log(p99Ms / p50Ms) / Z99;
  return Math.min(MAX_LATENCY_MS, p50Ms * Math.exp(sigma * standardNormal(random)));
}

/** A token bucket of `rate` tokens a second holding at most `rate` (the burst). */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    readonly rate: number,
    nowMs: number,
  ) {
    this.tokens = rate;
    this.at = nowMs;
  }

  /** Takes a token: 0 when there was one, else the milliseconds until there is. */
  take(nowMs: number): number {
    this.tokens = Math.min(this.rate, this.tokens + ((nowMs - this.at) / 1000) * this.rate);
    this.at = nowMs;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) / this.rate) * 1000);
  }
}

/** What the rehearsal middleware reads. */
export interface LoadRehearsalDeps {
  /**
   * The settings in force for the account a request names: its own, else the options'. `known`
   * is false for no account or an unknown one: such a call gets the options' latency and no limit
   * (authentication refuses it).
   */
  settingsOf(accountId: string | undefined): LoadSettings & { known: boolean };
  /**
   * Whether the `Authorization` header authenticates as `accountId` (a wrong, missing or
   * another account's token: false). Asked only of an account with a rate limit.
   */
  authenticatesAs(authorization: string | undefined, accountId: string): boolean;
  /** Real time in milliseconds (a fake in tests). */
  now?: () => number;
  random?: () => number;
}

/** At most this many accounts' buckets are kept (as many as accounts there can be, and more). */
const MAX_BUCKETS = 10_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The rate limit and the latency of one app, as the pipeline runs them (`pipeline.ts`): plain calls, async only while a latency waits. */
export interface LoadRehearsal {
  /**
   * The rate limit, before the call runs (a refused call does nothing): the 429 answer when the
   * account `accountId` (the one `X-MERCHANT-ACCOUNT-ID` names) has spent its tokens, counted
   * only when the request's token authenticates as it; else undefined, and the call goes on.
   */
  refused(c: Context, accountId: string | undefined): Response | undefined;
  /** This call's latency, spent while the call runs (the answer leaves once both are done); undefined without one. */
  latency(accountId: string | undefined): Promise<void> | undefined;
}

export function loadRehearsal(deps: LoadRehearsalDeps): LoadRehearsal {
  const now = deps.now ?? Date.now;
  const buckets = new Map<string, TokenBucket>();
  return {
    refused(c, accountId) {
      const settings = deps.settingsOf(accountId);
      if (!settings.known || settings.rateLimit <= 0 || accountId === undefined) return undefined;
      if (!deps.authenticatesAs(c.req.header('authorization'), accountId)) return undefined;
      const at = now();
      let bucket = buckets.get(accountId);
      if (!bucket || bucket.rate !== settings.rateLimit) {
        if (!bucket && buckets.size >= MAX_BUCKETS) buckets.clear();
        bucket = new TokenBucket(settings.rateLimit, at);
        buckets.set(accountId, bucket);
      }
      const waitMs = bucket.take(at);
      if (waitMs === 0) return undefined;
      const retryAfterS = Math.max(1, Math.ceil(waitMs / 1000));
      const err = new SandboxError(
        429,
        'too_many_requests',
        `Too many requests: this account is limited to ${settings.rateLimit} requests per second; retry after ${retryAfterS} s`,
      );
      return new Response(JSON.stringify(errorBody(err)), {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': String(retryAfterS) },
      });
    },
    latency(accountId) {
      const ms = sampleLatency(deps.settingsOf(accountId).latency, deps.random);
      return ms <= 0 ? undefined : sleep(ms);
    },
  };
}
