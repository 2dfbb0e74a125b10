/**
 * Scenarios loaded at run time (`POST/DELETE /_sandbox/scenarios`): load, remove one, remove
 * all, each announced on the change feed. A scenario the loader rejects is a domain
 * `SandboxError` 400 with the loader's one-line message and a detail per problem; the HTTP
 * layer turns it into the envelope like any other.
 */
import { badRequest, jsonPointer, type ErrorDetail, type SandboxError } from '../../core/domain/errors.js';
import type { ChangeFeed } from '../../core/domain/ports.js';

/** Why the loader refused a scenario: its one-line message and each problem with its place. */
export interface ScenarioRejection {
  message: string;
  problems: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}

export interface ScenarioControlDeps<S extends { name: string }, D extends { name: string; origin: string }> {
  /** Reads a scenario file's JSON with the loader of `--scenario` files; throws on a bad one. */
  parse(json: unknown): S;
  /** The rejection a thrown error is, when the loader (or the policy, for a name taken at start-up) threw it; otherwise undefined. */
  rejection(err: unknown): ScenarioRejection | undefined;
  /** The loaded scenarios: start-up ones fixed, run-time ones tried first. */
  policy: {
    addRuntime(scenario: S): { replaced: boolean };
    removeRuntime(name: string): boolean;
    clearRuntime(): number;
    describe(): D[];
  };
  feed: ChangeFeed;
}

export interface ScenarioControl<D> {
  /**
   * Loads a scenario at run time, tried before every other; one loaded earlier at run time
   * with the same name is replaced. Not persisted.
   * @throws SandboxError 400 with the loader's message and a detail per problem (also when a
   * start-up scenario has the name).
   */
  loadScenario(json: unknown): { scenario: D; replaced: boolean };
  /** Removes the scenario `name` loaded at run time; false when there is none. */
  removeScenario(name: string): boolean;
  /** Removes every scenario loaded at run time; how many there were. */
  clearScenarios(): number;
}

export function createScenarioControl<S extends { name: string }, D extends { name: string; origin: string }>({
  parse,
  rejection,
  policy,
  feed,
}: ScenarioControlDeps<S, D>): ScenarioControl<D> {
  return {
    loadScenario(json) {
      let loaded: { scenario: S; replaced: boolean };
      try {
        const scenario = parse(json);
        loaded = { scenario, replaced: policy.addRuntime(scenario).replaced };
      } catch (err) {
        const rejected = rejection(err);
        throw rejected ? scenarioRejected(rejected) : err;
      }
      const { scenario, replaced } = loaded;
      feed.emit('scenarios.changed', null, { loaded: scenario.name, replaced });
      const described = policy.describe().find((s) => s.origin === 'runtime' && s.name === scenario.name);
      if (!described) throw new Error(`scenario ${scenario.name} was loaded but is not listed`);
      return { scenario: described, replaced };
    },
    removeScenario(name) {
      const removed = policy.removeRuntime(name);
      if (removed) feed.emit('scenarios.changed', null, { removed: [name] });
      return removed;
    },
    clearScenarios() {
      const count = policy.clearRuntime();
      if (count > 0) feed.emit('scenarios.changed', null, { removed_count: count });
      return count;
    },
  };
}

/** The 400 of a rejected scenario: its one-line message, a detail per problem. */
export function scenarioRejected(rejection: ScenarioRejection): SandboxError {
  const details: ErrorDetail[] = rejection.problems.map((problem) => ({
    type: problem.message.startsWith('missing') ? 'missing' : 'value_error',
    pointer: jsonPointer(problem.path),
    message: problem.message,
    location: 'body',
  }));
  return badRequest(rejection.message, details);
}
