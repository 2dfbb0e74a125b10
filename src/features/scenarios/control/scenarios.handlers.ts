/**
 * Handlers of scenarios. Loading and removing at run time are the application's
 * (`ScenarioControl`); the loader words a bad file's problems, not the generic validation hook.
 */
import { notFound } from '../../../core/domain/errors.js';
import type { ControlHandler } from '../../../core/http/control-route-parts.js';
import type { ScenarioSummary } from './scenarios.schemas.js';
import type { ClearRoute, ListRoute, LoadRoute, RemoveRoute } from './scenarios.routes.js';

/** The loaded scenarios, in matching order. */
export interface ScenarioCatalogue {
  describe(): ScenarioSummary[];
}

/** Scenarios loaded and removed at run time (not persisted; a reset keeps them). */
export interface ScenarioControl {
  /** @throws SandboxError 400 with the loader's message and a detail per problem. */
  loadScenario(json: unknown): { scenario: ScenarioSummary; replaced: boolean };
  /** False when no scenario of that name was loaded at run time. */
  removeScenario(name: string): boolean;
  /** How many run-time scenarios there were. */
  clearScenarios(): number;
}

/** What the scenario routes use. */
export interface ScenarioControlDeps {
  scenarios: ScenarioCatalogue;
  control: ScenarioControl;
}

export function scenarioHandlers({ scenarios, control }: ScenarioControlDeps) {
  const list: ControlHandler<ListRoute> = (c) => c.json({ scenarios: scenarios.describe() }, 200);

  const load: ControlHandler<LoadRoute> = (c) => {
    const { scenario, replaced } = control.loadScenario(c.get('body'));
    return replaced ? c.json(scenario, 200) : c.json(scenario, 201);
  };

  const remove: ControlHandler<RemoveRoute> = (c) => {
    const { name } = c.req.valid('param');
    if (!control.removeScenario(name)) {
      const startup = scenarios.describe().some((s) => s.name === name);
      throw notFound(
        startup
          ? `Scenario ${name} was loaded at start-up: only scenarios loaded at run time can be removed`
          : `No scenario ${name} was loaded at run time`,
      );
    }
    return c.body(null, 204);
  };

  const clear: ControlHandler<ClearRoute> = (c) => c.json({ removed: control.clearScenarios() }, 200);

  return { list, load, remove, clear };
}
