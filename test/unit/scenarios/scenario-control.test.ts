/** Run-time scenarios on fakes: load, replace, remove, clear, and a rejected file as a 400 SandboxError. */
import { describe, expect, it } from 'vitest';
import { createScenarioControl, type ScenarioRejection } from '../../../src/features/scenarios/scenario-control.js';
import { SandboxError } from '../../../src/core/domain/errors.js';

class Rejected extends Error implements ScenarioRejection {
  constructor(
    message: string,
    readonly problems: ScenarioRejection['problems'],
  ) {
    super(message);
  }
}

function setup() {
  const runtime = new Map<string, { name: string }>();
  const published: { type: string; data: unknown }[] = [];
  const control = createScenarioControl({
    parse: (json) => {
      const name = (json as { name?: unknown }).name;
      if (typeof name !== 'string')
        throw new Rejected('POST /_sandbox/scenarios: name is missing', [
          { path: ['name'], message: 'missing name' },
          { path: ['rules', 0, 'a/b'], message: 'must be a string' },
        ]);
      return { name };
    },
    rejection: (err) => (err instanceof Rejected ? err : undefined),
    policy: {
      addRuntime: (s) => {
        if (s.name === 'default') throw new Rejected('POST /_sandbox/scenarios: "default" is a start-up scenario', []);
        const replaced = runtime.has(s.name);
        runtime.set(s.name, s);
        return { replaced };
      },
      removeRuntime: (name) => runtime.delete(name),
      clearRuntime: () => {
        const n = runtime.size;
        runtime.clear();
        return n;
      },
      describe: () => [{ name: 'default', origin: 'startup' }, ...[...runtime.keys()].map((name) => ({ name, origin: 'runtime' }))],
    },
    feed: { emit: (type, _account, data) => void published.push({ type, data }) },
  });
  return { control, published };
}

describe('createScenarioControl', () => {
  it('loads a scenario, answers its listing, and tells the feed; a second load of the name replaces it', () => {
    const { control, published } = setup();
    expect(control.loadScenario({ name: 'mine' })).toEqual({ scenario: { name: 'mine', origin: 'runtime' }, replaced: false });
    expect(control.loadScenario({ name: 'mine' }).replaced).toBe(true);
    expect(published).toEqual([
      { type: 'scenarios.changed', data: { loaded: 'mine', replaced: false } },
      { type: 'scenarios.changed', data: { loaded: 'mine', replaced: true } },
    ]);
  });

  it('a file the loader rejects is a 400 SandboxError with a detail per problem, and nothing is published', () => {
    const { control, published } = setup();
    let thrown: unknown;
    try {
      control.loadScenario({});
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(SandboxError);
    expect(thrown).toMatchObject({
      status: 400,
      code: 'bad_request',
      message: 'POST /_sandbox/scenarios: name is missing',
      details: [
        { type: 'missing', pointer: '/name', message: 'missing name', location: 'body' },
        { type: 'value_error', pointer: '/rules/0/a~1b', message: 'must be a string', location: 'body' },
      ],
    });
    expect(published).toEqual([]);
  });

  it('the name of a start-up scenario is refused the same way', () => {
    const { control } = setup();
    expect(() => control.loadScenario({ name: 'default' })).toThrow(SandboxError);
  });

  it('an unexpected error passes through unchanged', () => {
    const boom = new Error('boom');
    const control = createScenarioControl({
      parse: () => {
        throw boom;
      },
      rejection: () => undefined,
      policy: { addRuntime: () => ({ replaced: false }), removeRuntime: () => false, clearRuntime: () => 0, describe: () => [] },
      feed: { emit: () => undefined },
    });
    expect(() => control.loadScenario({})).toThrow(boom);
  });

  it('remove and clear tell the feed only when something went', () => {
    const { control, published } = setup();
    expect(control.removeScenario('none')).toBe(false);
    expect(control.clearScenarios()).toBe(0);
    expect(published).toEqual([]);
    control.loadScenario({ name: 'a' });
    control.loadScenario({ name: 'b' });
    control.loadScenario({ name: 'c' });
    published.length = 0;
    expect(control.removeScenario('a')).toBe(true);
    expect(control.clearScenarios()).toBe(2);
    expect(published).toEqual([
      { type: 'scenarios.changed', data: { removed: ['a'] } },
      { type: 'scenarios.changed', data: { removed_count: 2 } },
    ]);
  });
});
