/**
 * The /v4 pipeline, written once, in the order a request meets it:
 *
 * App-wide, before any route: `security.ts` (Host, Origin, admin token, `nosniff`).
 * Then `front`, on every /v4 path (unknown ones too), one middleware:
 *   1. the account clock: the request runs on the clock of the account it names;
 *   2. the request log opens its entry (`request-log.ts`);
 *   3. the rate limit (`load-rehearsal.ts`; an account's tokens are spent only by its own key);
 *   4. the latency, started (spent while the request runs);
 *   5. `X-Sandbox-Fault` (`faults.ts`): a fault before execution answers here.
 * Then `secured(scope)`, on each operation (an unknown path is 404/405 without auth), one middleware:
 *   6. authentication (`auth.ts`), 7. the scope, 8. the JSON body gate (`body.ts`).
 * Then, in a create's handler, `create(...)`:
 *   9. validation against the schema of the account's mode (`validation.ts`),
 *   10. the scenario rules' `api_fault` (`faults.ts`),
 *   11. idempotency (`idempotency.ts`), which runs the operation.
 * Back in `front`: a fault after execution replaces the answer, the latency is waited for, and
 * the request log writes the entry (unless the create's unit of work wrote it); its subscribers
 * (`LoggedRequest`) hear of it once the answer is written (`request-log.ts` `afterAnswer`).
 *
 * Nothing is async but what waits: the latency, a fault's wait, the body stream.
 */
import type { Context, ErrorHandler, MiddlewareHandler, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Clock } from '../clock/clock.js';
import type { ApiAuth, Secured } from './auth.js';
import { jsonBody } from './body.js';
import type { ApiEnv } from './env.js';
import { newExchange } from './exchange.js';
import type { ApiFault, ApiFaults, FaultMatch, FaultOutcome } from './faults.js';
import type { Idempotent } from './idempotency.js';
import type { LoadRehearsal } from './load-rehearsal.js';
import type { RequestLog } from './request-log.js';
import type { RequestSchemas, ValidRequest } from './validation.js';

/** A create as its route declares it: the body's schemas, its input, and what the scenario rules match (`M`, the feature's). */
export interface Operation<D, I, M extends FaultMatch = FaultMatch> extends RequestSchemas<D> {
  /** The operation's input from the valid body (default: the body itself). */
  input?(data: D): I;
  /** What the scenario rules match of the create, asked for an `api_fault` before it runs. */
  match?(input: I): M;
}

/**
 * Steps 9 to 11 of a create: validates the request, plays a scenario rule's fault before it runs,
 * then runs `run` once per Idempotency-Key and answers `status` with its JSON.
 */
export type Create = <D, T, S extends ContentfulStatusCode, I = D, M extends FaultMatch = FaultMatch>(
  c: Context<ApiEnv>,
  operation: Operation<D, I, M>,
  status: S,
  run: (input: I, match: M | undefined) => T,
) => TypedResponse<T, S, 'json'> | Promise<TypedResponse<T, S, 'json'>>;

/** What a /v4 route uses of the pipeline: its operation's guard and a create's steps. */
export interface ApiPipeline {
  /** Steps 6 to 8 of an operation needing `scope`. */
  secured: Secured;
  /** Steps 9 to 11 of a create. */
  create: Create;
}

/** The methods whose body the gate reads. */
const WRITES = new Set(['POST', 'PUT', 'PATCH']);

/** Steps 6 to 8 as one middleware: authentication, the scope, then the body gate (`--body-limit`). */
export function securedBy(auth: ApiAuth, { bodyLimit }: { bodyLimit: number }): Secured {
  const body = jsonBody<ApiEnv>({ maxSize: bodyLimit });
  return (scope) => (c, next) => {
    const restrictedKeyId = auth.authenticate(c);
    auth.requireScope(c, scope, restrictedKeyId);
    // Only a write has a body to read: a read goes on at once.
    return WRITES.has(c.req.method) ? body(c, next) : next();
  };
}

/** Steps 9 to 11 over one app's validation, scenario faults and keys. */
export function createSteps(validRequest: ValidRequest, scenarioFault: ApiFaults['scenarioFault'], idempotent: Idempotent): Create {
  return (c, operation, status, run) => {
    const data = validRequest(c, operation);
    const input = operation.input ? operation.input(data) : (data as unknown as Parameters<typeof run>[0]);
    const match = operation.match?.(input);
    const waiting = match === undefined ? undefined : scenarioFault(c, match);
    const execute = () => idempotent(c, status, () => run(input, match));
    return waiting === undefined ? execute() : waiting.then(execute);
  };
}

/** What the pipeline is built from, each over its own ports (`createApp`). */
export interface PipelineDeps {
  clock: Pick<Clock, 'inAccount'>;
  log: RequestLog;
  rehearsal: LoadRehearsal;
  faults: ApiFaults;
  auth: ApiAuth;
  validRequest: ValidRequest;
  idempotent: Idempotent;
  bodyLimit: number;
  /** The app's error handler: an error in steps 1 to 5 is answered, and logged, as any other. */
  onError: ErrorHandler<ApiEnv>;
}

export interface Pipeline extends ApiPipeline {
  /** Steps 1 to 5 and what follows the answer, on every /v4 path. */
  front: MiddlewareHandler<ApiEnv>;
  /** The same without faults, for the spec's bare `/buyers`. */
  frontWithoutFaults: MiddlewareHandler<ApiEnv>;
}

const NOTHING_PLAYED: FaultOutcome = { played: false, executed: undefined };

export function apiPipeline(deps: PipelineDeps): Pipeline {
  const { clock, log, rehearsal, faults, onError } = deps;

  /** An error of the pipeline's own steps is answered, and logged, as one of the operation's would be. */
  const failed = async (c: Context<ApiEnv>, err: unknown): Promise<void> => {
    if (!(err instanceof Error)) throw err;
    c.error = err;
    c.res = await onError(err, c);
  };

  const through = async (c: Context<ApiEnv>, next: () => Promise<void>, accountId: string | undefined, withFaults: boolean) => {
    const exchange = newExchange();
    c.set('exchange', exchange);
    const logged = log.arrive(c, exchange); // 2
    let asked: ApiFault | undefined;
    try {
      const refused = rehearsal.refused(c, accountId); // 3
      if (refused !== undefined) c.res = refused;
      else {
        exchange.latency = rehearsal.latency(accountId); // 4
        asked = withFaults ? faults.asked(c, exchange) : undefined; // 5
        const answer = asked !== undefined && !asked.after ? await faults.before(c, asked) : undefined;
        if (answer !== undefined) c.res = answer;
        else await log.scoped(c, next); // 6 to 11, and the operation
      }
    } catch (err) {
      await failed(c, err);
    }
    let played = NOTHING_PLAYED;
    if (withFaults) {
      try {
        const after = faults.after(c, exchange, asked);
        played = after instanceof Promise ? await after : after;
      } catch (err) {
        await failed(c, err);
      }
    }
    if (exchange.latency !== undefined) await exchange.latency;
    const closing = logged(played);
    if (closing !== undefined) await closing;
  };

  const front =
    (withFaults: boolean): MiddlewareHandler<ApiEnv> =>
    (c, next) => {
      const accountId = c.req.header('x-merchant-account-id');
      // 1: what the request stores is stamped, and its webhooks timed, on its account's clock.
      return accountId
        ? clock.inAccount(accountId, () => through(c, next, accountId, withFaults))
        : through(c, next, undefined, withFaults);
    };

  return {
    front: front(true),
    frontWithoutFaults: front(false),
    secured: securedBy(deps.auth, { bodyLimit: deps.bodyLimit }),
    create: createSteps(deps.validRequest, faults.scenarioFault, deps.idempotent),
  };
}
