/**
 * The parts of the /v4 request pipeline a resource router runs inside its handlers, built once
 * per app by `createApp` (each over its own ports): `secured` (auth, scope, body gate) on each
 * route, then `validRequest`, `scenarioFault` and `idempotent` in a create's handler. A test
 * hands a router fakes of them, or real ones over fake ports.
 */
import type { Secured } from './auth.js';
import type { ApiFaults } from './faults.js';
import type { Idempotent } from './idempotency.js';
import type { ValidRequest } from './validation.js';

export interface ApiPipeline {
  /** The middleware of a route needing `scope` (`apiAuth`). */
  secured: Secured;
  /** Validates a write's body and headers (`requestValidation`). */
  validRequest: ValidRequest;
  /** The scenario rules' `api_fault` for a create (`apiFaults(...).scenarioFault`). */
  scenarioFault: ApiFaults['scenarioFault'];
  /** Runs a create once per Idempotency-Key (`idempotency`). */
  idempotent: Idempotent;
}
