/**
 * `runConformance`: runs every check against one server, or against two and reports where
 * their answers differ. The comparison normalises what differs by nature (ids, timestamps,
 * cursors, URLs: every string becomes its JSON type, except the values that are the API's
 * vocabulary: `type`, `code`, `status`, `pointer`, `location`) and keeps statuses, error codes,
 * `details` pointers, field sets and JSON types, and of a page what its check controls: the
 * records it created and, where it created more than a page, whether `next_cursor` is null.
 */
import { CHECKS } from './checks.js';
import { type Check, type CheckNeed } from './check-helpers.js';
import { CheckFailed, jsonType } from './client.js';
import { CredentialsCheckingClient } from './credentials.js';
import {
  conformanceOptionsSchema,
  type CheckOutcome,
  type ConformanceOptions,
  type ConformanceReport,
  type ConformanceTarget,
  type Difference,
  type Exchange,
} from './report.js';

const KEPT_VALUES = new Set(['type', 'code', 'status', 'pointer', 'location']);

/** The shape of an answer: values that differ by nature replaced by their JSON type. */
export function normalise(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => normalise(v));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, k)]));
  if (typeof value === 'string' && KEPT_VALUES.has(key)) return value;
  if (typeof value === 'number' && key === 'status') return value;
  return jsonType(value);
}

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Where two normalised answers differ, as JSON pointers. */
export function diffShapes(a: unknown, b: unknown, pointer = ''): { pointer: string; left: unknown; right: unknown }[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    const out: { pointer: string; left: unknown; right: unknown }[] = [];
    if (a.length !== b.length) out.push({ pointer, left: `array of ${a.length}`, right: `array of ${b.length}` });
    for (let i = 0; i < Math.min(a.length, b.length); i += 1) out.push(...diffShapes(a[i], b[i], `${pointer}/${i}`));
    return out;
  }
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) =>
      k in a && k in b
        ? diffShapes(a[k], b[k], `${pointer}/${escapePointer(k)}`)
        : [{ pointer: `${pointer}/${escapePointer(k)}`, left: k in a ? a[k] : 'missing', right: k in b ? b[k] : 'missing' }],
    );
  }
  const kind = (v: unknown): unknown => (isObject(v) ? 'object' : Array.isArray(v) ? 'array' : v);
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [{ pointer, left: kind(a), right: kind(b) }];
}

/** Why a check that needs `need` is skipped against a server given without it. */
function skipReason(need: CheckNeed, side: 'url' | 'compare'): string {
  const flag = side === 'url' ? '--' : '--compare-';
  const field = side === 'url' ? '' : 'compare.';
  return need === 'checkout'
    ? `no checkout-mode account given (${flag}checkout-api-key and ${flag}checkout-account-id; ${field}checkout in runConformance)`
    : `no restricted key given (${flag}restricted-api-key; ${field}restrictedApiKey in runConformance): a key of the account that may read transactions but not write them`;
}

const missing = (need: CheckNeed, target: ConformanceTarget): boolean =>
  need === 'checkout' ? target.checkout === undefined : target.restrictedApiKey === undefined;

async function runOne(
  check: Check,
  target: ConformanceTarget,
  side: 'url' | 'compare',
  acceptedKeys: Set<string>,
): Promise<{ outcome: CheckOutcome; exchanges: Exchange[] }> {
  if (check.needs !== undefined && missing(check.needs, target))
    return { outcome: { outcome: 'skipped', duration_ms: 0, failure: null, skip_reason: skipReason(check.needs, side) }, exchanges: [] };
  const client = new CredentialsCheckingClient(target, side === 'url' ? '--' : '--compare-', acceptedKeys);
  const started = Date.now();
  try {
    await check.run(client);
    return {
      outcome: { outcome: 'passed', duration_ms: Date.now() - started, failure: null, skip_reason: null },
      exchanges: client.exchanges,
    };
  } catch (err) {
    if (!(err instanceof CheckFailed)) throw err; // a connection error or a refused key stops the run
    const failure = { message: err.message, pointer: err.pointer, expected: err.expected, actual: err.actual, exchange: err.exchange };
    return { outcome: { outcome: 'failed', duration_ms: Date.now() - started, failure, skip_reason: null }, exchanges: client.exchanges };
  }
}

const requestLine = (ex: Exchange): string => `${ex.request.method} ${ex.request.path}`;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The ids of the records the check created before its exchange `upTo`: the ids its successful POSTs answered. */
function createdBefore(exchanges: Exchange[], upTo: number): Set<string> {
  const ids = new Set<string>();
  for (const ex of exchanges.slice(0, upTo)) {
    const body = ex.response.body;
    if (
      ex.request.method === 'POST' &&
      ex.response.status >= 200 &&
      ex.response.status < 300 &&
      isRecord(body) &&
      typeof body.id === 'string'
    )
      ids.add(body.id);
  }
  return ids;
}

/**
 * What a check controls of its answer number `i`. A page (`items` and `next_cursor`) holds
 * records of whoever used the account before: only the records the check itself created before
 * asking are kept, so its size counts up to `min(size, limit)` over its own records; its
 * `next_cursor` counts only when the check had created more records than the page's limit,
 * otherwise a string and null are alike. Any other answer is kept whole.
 */
export function controlledBody(exchanges: Exchange[], i: number): unknown {
  const body = exchanges[i]!.response.body;
  if (!isRecord(body) || !Array.isArray(body.items) || !('next_cursor' in body)) return body;
  const own = createdBefore(exchanges, i);
  const items = body.items.filter((item) => isRecord(item) && typeof item.id === 'string' && own.has(item.id));
  const cursorControlled = typeof body.limit === 'number' && own.size > body.limit;
  const cursor = body.next_cursor;
  const next_cursor = cursorControlled || (cursor !== null && typeof cursor !== 'string') ? cursor : 'string or null';
  return { ...body, items, next_cursor };
}

function compareRuns(
  check: Check,
  left: { outcome: CheckOutcome; exchanges: Exchange[] },
  right: { outcome: CheckOutcome; exchanges: Exchange[] },
): Difference[] {
  const out: Difference[] = [];
  // a check skipped on either side (credentials not given there) is not compared
  if (left.outcome.outcome === 'skipped' || right.outcome.outcome === 'skipped') return out;
  const n = Math.min(left.exchanges.length, right.exchanges.length);
  for (let i = 0; i < n; i += 1) {
    const a = left.exchanges[i]!;
    const b = right.exchanges[i]!;
    const shapeA = { status: a.response.status, body: normalise(controlledBody(left.exchanges, i)) };
    const shapeB = { status: b.response.status, body: normalise(controlledBody(right.exchanges, i)) };
    for (const d of diffShapes(shapeA, shapeB))
      out.push({ check: check.name, request: requestLine(a), pointer: d.pointer, url_value: d.left, compare_value: d.right });
  }
  if (left.outcome.outcome !== right.outcome.outcome) {
    const failed = left.outcome.failure ?? right.outcome.failure;
    const ex = failed?.exchange ?? left.exchanges.at(-1) ?? null;
    out.push({
      check: check.name,
      request: ex ? requestLine(ex) : '',
      pointer: failed?.pointer ?? '',
      url_value: left.outcome.outcome === 'failed' ? `fails: ${left.outcome.failure?.message}` : 'passes',
      compare_value: right.outcome.outcome === 'failed' ? `fails: ${right.outcome.failure?.message}` : 'passes',
    });
  } else if (left.exchanges.length !== right.exchanges.length) {
    out.push({
      check: check.name,
      request: '',
      pointer: '',
      url_value: `${left.exchanges.length} requests`,
      compare_value: `${right.exchanges.length} requests`,
    });
  }
  return out;
}

/**
 * Runs the checks against `url` (and `compare.url`). Resolves with the report.
 * @throws ZodError for bad options, ConformanceConnectionError when a server cannot be reached,
 *   ConformanceCredentialsError when a server answers the first call with one of the keys 401.
 */
export async function runConformance(options: ConformanceOptions, checks: Check[] = CHECKS): Promise<ConformanceReport> {
  const { compare, ...target } = conformanceOptionsSchema.parse(options);
  const results: ConformanceReport['checks'] = [];
  const differences: Difference[] = [];
  // the options whose key each server has accepted once (a first answer 401 stops the run)
  const accepted = { url: new Set<string>(), compare: new Set<string>() };
  for (const check of checks) {
    const left = await runOne(check, target, 'url', accepted.url);
    const right = compare ? await runOne(check, compare, 'compare', accepted.compare) : null;
    results.push({ name: check.name, rule: check.rule, result: left.outcome, compare_result: right?.outcome ?? null });
    if (right) differences.push(...compareRuns(check, left, right));
  }
  const failed = results.filter((r) => r.result.outcome === 'failed' || r.compare_result?.outcome === 'failed').length;
  const skipped = results.filter(
    (r) =>
      r.result.outcome !== 'failed' &&
      r.compare_result?.outcome !== 'failed' &&
      (r.result.outcome === 'skipped' || r.compare_result?.outcome === 'skipped'),
  ).length;
  return {
    url: target.url,
    compare_url: compare?.url ?? null,
    generated_at: new Date().toISOString(),
    summary: { checks: results.length, passed: results.length - failed - skipped, failed, skipped, differences: differences.length },
    checks: results,
    differences,
  };
}

/** True when no check failed (on either server) and the servers do not differ; skipped checks neither pass nor fail. */
export function conformancePassed(report: ConformanceReport): boolean {
  return report.summary.failed === 0 && report.summary.differences === 0;
}
