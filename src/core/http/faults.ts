/**
 * API faults for merchants to test their own code: the `X-Sandbox-Fault` request header on
 * any /v4 call, and scenario rules with an `api_fault` step on creates (`scenarioFault`).
 * This module owns the fault vocabulary, its parsing, and how each fault is played on the
 * wire: an error envelope (503, 429 with `Retry-After`), an answer that never comes
 * (`timeout`), a slow answer (`latency=ms`) or a dropped connection (`reset`).
 *
 * Idempotency (spec rule 2 and 4): a fault BEFORE execution answers before the create runs,
 * so nothing is stored and a retry with the same key executes. A fault AFTER execution
 * (`503-after`, `reset-after`, `timeout-after`) lets the request run and store its response
 * under its key, then loses the answer on the way back; a retry with the same key replays
 * the stored response.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { SandboxError, badRequest } from '../domain/errors.js';
import type { ApiEnv, Exchange } from './env.js';
import { errorBody } from './errors.js';
import { exchangeOf } from './exchange.js';

/**
 * The syntax of an API fault, shared by the `X-Sandbox-Fault` header and the `api_fault` step:
 * `503`, `503-after`, `429`, `429=<s>`, `timeout`, `timeout=<n>s`, `timeout-after`,
 * `latency=<ms>`, `reset`, `reset-after` (played here).
 */
export const API_FAULT_PATTERN = /^(?:503(?:-after)?|429(?:=\d{1,3})?|timeout(?:=\d{1,3}s)?(?:-after)?|latency=\d{1,6}|reset(?:-after)?)$/;

/** The request header that asks for a fault. */
export const FAULT_HEADER = 'X-Sandbox-Fault';
/** How long `timeout` holds the request when it names no time. */
export const DEFAULT_TIMEOUT_S = 30;
/** The longest `timeout=` and `latency=` the sandbox accepts. */
export const MAX_FAULT_WAIT_S = 120;

/** A parsed fault: what to do, and whether before or after execution. */
export type ApiFault =
  | { kind: 'status'; status: 503 | 429; retryAfterS: number; after: boolean }
  | { kind: 'timeout'; seconds: number; after: boolean }
  | { kind: 'latency'; ms: number; after: false }
  | { kind: 'reset'; after: boolean };

/** The values `X-Sandbox-Fault` (and an `api_fault` step) accept, as the README and OpenAPI list them. */
export const FAULT_VALUES = [
  '503',
  '503-after',
  '429',
  '429=<seconds>',
  'timeout',
  'timeout=<n>s',
  'timeout-after',
  'latency=<ms>',
  'reset',
  'reset-after',
] as const;

/**
 * Parses a fault value (`503`, `429=5`, `timeout=5s`, `latency=800`, `reset-after`, ...).
 * Returns null for a value outside the vocabulary (see `FAULT_VALUES`).
 */
export function parseFault(raw: string): ApiFault | null {
  const value = raw.trim().toLowerCase();
  if (!API_FAULT_PATTERN.test(value)) return null;
  const after = value.endsWith('-after');
  const base = after ? value.slice(0, -'-after'.length) : value;
  if (base === '503') return { kind: 'status', status: 503, retryAfterS: 1, after };
  if (base.startsWith('429')) {
    const retryAfterS = base.includes('=') ? Number(base.slice(4)) : 1;
    return { kind: 'status', status: 429, retryAfterS, after: false };
  }
  if (base.startsWith('timeout')) {
    const seconds = base.includes('=') ? Number(base.slice('timeout='.length, -1)) : DEFAULT_TIMEOUT_S;
    if (seconds < 1 || seconds > MAX_FAULT_WAIT_S) return null;
    return { kind: 'timeout', seconds, after };
  }
  if (base.startsWith('latency=')) {
    const ms = Number(base.slice('latency='.length));
    if (ms > MAX_FAULT_WAIT_S * 1000) return null;
    return { kind: 'latency', ms, after: false };
  }
  return { kind: 'reset', after };
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** The Node request under the Hono context, when served by @hono/node-server (absent in `app.request`). */
function incomingOf(c: Context<ApiEnv>): IncomingMessage | undefined {
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  return env?.incoming;
}

/** The envelope answer of a 503 or 429 fault. */
function statusResponse(fault: Extract<ApiFault, { kind: 'status' }>, when: string): Response {
  const err =
    fault.status === 503
      ? new SandboxError(
          503,
          'service_unavailable',
          `The service is unavailable (${FAULT_HEADER}: 503${fault.after ? '-after' : ''}, ${when}); retry later`,
        )
      : new SandboxError(429, 'too_many_requests', `Too many requests (${FAULT_HEADER}: 429, ${when}); retry after ${fault.retryAfterS} s`);
  return new Response(JSON.stringify(errorBody(err)), {
    status: fault.status,
    headers: { 'content-type': 'application/json', 'retry-after': String(fault.retryAfterS), 'x-sandbox-fault': 'injected' },
  });
}

/**
 * Drops the connection: the socket is destroyed, so the client sees a reset and no answer.
 * Without a socket (`app.request` in tests) it answers 503 saying so.
 */
function dropConnection(c: Context<ApiEnv>, after: boolean, when: string): Response {
  const incoming = incomingOf(c);
  incoming?.socket.destroy();
  return statusResponse({ kind: 'status', status: 503, retryAfterS: 1, after }, `${when}; the connection was reset`);
}

/** Holds the request until the client gives up or `seconds` pass, then drops the connection. */
async function holdThenDrop(c: Context<ApiEnv>, seconds: number, when: string): Promise<Response> {
  await sleep(seconds * 1000, c.req.raw.signal);
  const incoming = incomingOf(c);
  if (incoming) {
    incoming.socket.destroy();
    return new Response(null, { status: 504 });
  }
  const err = new SandboxError(504, 'gateway_timeout', `No answer within ${seconds} s (${FAULT_HEADER}: timeout, ${when})`);
  return new Response(JSON.stringify(errorBody(err)), { status: 504, headers: { 'content-type': 'application/json' } });
}

/** Plays a fault in place of the answer (before execution, or after it with the stored answer lost). */
async function play(c: Context<ApiEnv>, fault: ApiFault, when: string): Promise<Response | undefined> {
  switch (fault.kind) {
    case 'status':
      return statusResponse(fault, when);
    case 'timeout':
      return holdThenDrop(c, fault.seconds, when);
    case 'reset':
      return dropConnection(c, fault.after, when);
    case 'latency':
      await sleep(fault.ms, c.req.raw.signal);
      return undefined;
  }
}

/** Thrown by `scenarioFault` to stop a create before it runs; the middleware plays the fault. */
class ScenarioFaultSignal extends SandboxError {
  constructor(
    readonly fault: ApiFault,
    readonly rule: string,
  ) {
    super(503, 'service_unavailable', `Fault injected by scenario rule ${rule}`);
  }
}

/** What a scenario rule is matched on: built by the route of a create, read by the scenario rules alone. */
export type FaultMatch = object;

/** The scenario rules as the fault middleware asks them (`scenarios/policy.ts` implements it). */
export interface ScenarioApiFaults {
  /** The `api_fault` step of the first rule matching a create, or null. */
  apiFaultFor(input: FaultMatch): { rule: string; fault: string } | null;
}

/** What `apiFaults` needs: the scenario rules. */
export interface ApiFaultsDeps {
  scenarios: ScenarioApiFaults;
}

/** What the faults did to a request's answer, as the pipeline tells the request log. */
export interface FaultOutcome {
  /** A scenario rule's fault, or one after execution, was played. */
  played: boolean;
  /** The answer the operation made before a fault after execution replaced it. */
  executed: Response | undefined;
}

/** The fault machinery of one app, as the pipeline runs it (`pipeline.ts`) and the create routes ask it. */
export interface ApiFaults {
  /**
   * The fault `X-Sandbox-Fault` asks for, or undefined without the header; a bad value is a 400
   * envelope naming the header (thrown). A fault after execution withdraws the entry written in
   * the create's unit of work: the answer logged is the one the fault leaves.
   */
  asked(c: Context<ApiEnv>, exchange: Exchange): ApiFault | undefined;
  /** Plays a fault before execution: its answer, or undefined once a `latency=` wait is over (async only then). */
  before(c: Context<ApiEnv>, fault: ApiFault): Promise<Response | undefined> | Response | undefined;
  /**
   * Once the operation ran: plays a scenario rule's fault before execution (`scenarioFault`
   * threw it), or a fault after execution (the header's `asked`, or a rule's), in place of the
   * answer; says what it played.
   */
  after(c: Context<ApiEnv>, exchange: Exchange, asked: ApiFault | undefined): Promise<FaultOutcome> | FaultOutcome;
  /**
   * Asks the scenario rules whether this create fails by an `api_fault` step (first matching
   * rule, as for outcomes). Await it after validation and before `idempotent(...)`: a fault
   * before execution throws (nothing runs, nothing is stored), `latency=` waits; a fault after
   * execution is noted and played once the create has run.
   */
  scenarioFault(c: Context<ApiEnv>, input: FaultMatch): Promise<void> | undefined;
}

const NOTHING_PLAYED: FaultOutcome = { played: false, executed: undefined };

/** The fault machinery of one app over its scenario rules; what it notes of a request is in the request's exchange. */
export function apiFaults({ scenarios }: ApiFaultsDeps): ApiFaults {
  const asked = (c: Context<ApiEnv>, exchange: Exchange): ApiFault | undefined => {
    const raw = c.req.header(FAULT_HEADER);
    if (raw === undefined) return undefined;
    const fault = parseFault(raw);
    if (!fault) {
      throw badRequest(`Unknown ${FAULT_HEADER} value "${raw}": expected one of ${FAULT_VALUES.join(', ')}`, [
        { type: 'value_error', pointer: '/x-sandbox-fault', message: `Expected one of ${FAULT_VALUES.join(', ')}`, location: 'header' },
      ]);
    }
    if (fault.after) exchange.logInUnit = undefined; // the answer logged is the one the fault leaves
    return fault;
  };

  const after = async (c: Context<ApiEnv>, exchange: Exchange, header: ApiFault | undefined): Promise<FaultOutcome> => {
    if (c.error instanceof ScenarioFaultSignal) {
      const { fault: ruled, rule } = c.error;
      c.error = undefined;
      const answer = await play(c, ruled, `before execution, scenario rule ${rule}`);
      if (answer) c.res = answer;
      return { played: true, executed: undefined };
    }
    const fault = header?.after ? header : exchange.faultAfter === undefined ? undefined : (parseFault(exchange.faultAfter) ?? undefined);
    // Refused before it ran (a bad body, auth): nothing ran, nothing is stored under the key,
    // so the refusal stands rather than a 503 claiming a stored response.
    if (fault === undefined || c.error !== undefined) return NOTHING_PLAYED;
    const executed = c.res;
    const answer = await play(c, fault, 'after execution: the response was stored under its idempotency key, then lost');
    if (answer) c.res = answer;
    return { played: true, executed };
  };

  const scenarioFault = (c: Context<ApiEnv>, input: FaultMatch): Promise<void> | undefined => {
    const found = scenarios.apiFaultFor(input);
    if (!found) return undefined;
    const fault = parseFault(found.fault);
    if (!fault) return undefined; // the loader checked the syntax
    if (fault.kind === 'latency') return sleep(fault.ms, c.req.raw.signal);
    if (fault.after) {
      const exchange = exchangeOf(c);
      exchange.faultAfter = found.fault;
      exchange.logInUnit = undefined; // the answer logged is the one the fault leaves
      return undefined;
    }
    throw new ScenarioFaultSignal(fault, found.rule);
  };

  return {
    asked,
    before: (c, fault) => play(c, fault, 'before execution'),
    after: (c, exchange, header) =>
      header?.after || exchange.faultAfter !== undefined || c.error instanceof ScenarioFaultSignal
        ? after(c, exchange, header)
        : NOTHING_PLAYED,
    scenarioFault,
  };
}

/** The header as an OpenAPI parameter of every /v4 operation. */
export const faultHeaderParameter = {
  name: 'x-sandbox-fault',
  in: 'header' as const,
  required: false,
  description:
    'Sandbox extension: fail this call on purpose. 503 / 429 (envelope, Retry-After) / timeout[=Ns] / latency=MS / reset answer before the request runs ' +
    '(nothing is stored under its Idempotency-Key); 503-after / timeout-after / reset-after run it, store its response, then lose the answer (a retry with the same key replays it).',
  schema: { type: 'string' as const, pattern: API_FAULT_PATTERN.source },
  example: '503',
};
