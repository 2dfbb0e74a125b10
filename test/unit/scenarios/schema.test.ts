import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile, parseScenario } from '../../../src/features/scenarios/load.js';
import { defaultScenarioPath } from '../../../src/core/config.js';
import { scenarioFileSchema, type ScenarioFileInput } from '../../../src/features/scenarios/schema.js';
import { stepKind } from '../../../src/features/scenarios/step-schema.js';

const DEFAULT_SCENARIO_PATH = defaultScenarioPath();

const shipped = (name: string): string => fileURLToPath(new URL(`../../../scenarios/${name}`, import.meta.url));

/** A one-rule file around the given rule parts. */
const oneRule = (rule: Record<string, unknown>): unknown => ({
  name: 'test',
  rules: [{ name: 'r', match: {}, steps: [], ...rule }],
});

describe('scenario schema', () => {
  it.each([
    ['default.json', DEFAULT_SCENARIO_PATH],
    ['examples/ci-declines.json', shipped('examples/ci-declines.json')],
    ['examples/slow-settlement.json', shipped('examples/slow-settlement.json')],
  ])('accepts the shipped %s', (_name, path) => {
    const scenario = loadScenarioFile(path);
    expect(scenario.rules.length).toBeGreaterThan(0);
    expect(scenario.source).toBe(path);
  });

  it('DEFAULT_SCENARIO_PATH points at scenarios/default.json of the package', () => {
    expect(DEFAULT_SCENARIO_PATH).toBe(shipped('default.json'));
  });

  it('fills in defaults: after_seconds 0, webhook failure status 503', () => {
    const input: ScenarioFileInput = {
      name: 'defaults',
      rules: [{ name: 'r', match: {}, steps: [{ outcome: 'SUCCEEDED' }, { webhook_failures: 2 }] }],
    };
    const file = scenarioFileSchema.parse(input);
    expect(file.rules[0].steps).toEqual([
      { outcome: 'SUCCEEDED', after_seconds: 0 },
      { webhook_failures: 2, status: 503 },
    ]);
    expect(file.rules[0].steps.map(stepKind)).toEqual(['outcome', 'webhook_failures']);
  });

  it('accepts an empty match and an empty step list', () => {
    expect(() => parseScenario(oneRule({}), 'x.json')).not.toThrow();
  });

  it('accepts every step variant together in a subscription rule', () => {
    const file = parseScenario(
      oneRule({
        match: { applies_to: 'subscription', plan: { name: 'gold', interval: 'month' } },
        steps: [
          { outcome: 'SUCCEEDED', after_seconds: 5 },
          { refund: { amount: 100, reason: 'goodwill' }, after_seconds: 60 },
          { renewal_outcomes: ['FAILED', 'SUCCEEDED'] },
          { webhook_failures: 1, status: 500 },
        ],
      }),
      'x.json',
    );
    expect(file.rules[0].steps.map(stepKind)).toEqual(['outcome', 'refund', 'renewal_outcomes', 'webhook_failures']);
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'two outcomes',
      { steps: [{ outcome: 'SUCCEEDED' }, { outcome: 'FAILED' }] },
      'steps[1].outcome: a rule has at most one "outcome" step',
    ],
    ['refund without outcome', { steps: [{ refund: {} }] }, 'steps[0].refund: a "refund" step needs an { "outcome": "SUCCEEDED" } step'],
    [
      'refund after FAILED',
      { steps: [{ outcome: 'FAILED' }, { refund: {} }] },
      `steps[1].refund: a "refund" step needs the rule's outcome to be "SUCCEEDED", not "FAILED"`,
    ],
    [
      'renewals on a transaction rule',
      { match: { applies_to: 'transaction' }, steps: [{ renewal_fails: [1] }] },
      'steps[0].renewal_fails: "renewal_fails" is for subscriptions',
    ],
    [
      'two renewal steps',
      { steps: [{ renewal_fails: [1] }, { renewal_outcomes: ['FAILED'] }] },
      'steps[1].renewal_outcomes: a rule has at most one "renewal_fails" or "renewal_outcomes" step',
    ],
    ['renewal number 0', { steps: [{ renewal_fails: [0] }] }, 'steps[0].renewal_fails[0]: expected a number >= 1, got 0'],
    ['negative delay', { steps: [{ outcome: 'FAILED', after_seconds: -1 }] }, 'steps[0].after_seconds: expected a number >= 0, got -1'],
    [
      'webhook status out of range',
      { steps: [{ webhook_failures: 1, status: 200 }] },
      'steps[0].status: expected a number >= 400, got 200',
    ],
    ['zero webhook failures', { steps: [{ webhook_failures: 0 }] }, 'steps[0].webhook_failures: expected a number >= 1, got 0'],
    [
      'refund amount 0',
      { steps: [{ outcome: 'SUCCEEDED' }, { refund: { amount: 0 } }] },
      'steps[1].refund.amount: expected a number >= 1, got 0',
    ],
    ['two step keys', { steps: [{ outcome: 'FAILED', refund: {} }] }, 'steps[0]: a step has exactly one of the keys'],
    [
      'no step key',
      { steps: [{}] },
      'steps[0]: expected a step with one of the keys "outcome", "refund", "renewal_fails", "renewal_outcomes", "webhook_failures", "api_fault" or "webhook_fault", got no key',
    ],
    ['a step that is not an object', { steps: [5] }, 'steps[0]: expected a step with one of the keys'],
    ['misspelt step key', { steps: [{ outcom: 'FAILED' }] }, 'steps[0].outcom: unknown key (did you mean "outcome"?)'],
    [
      'fractional amount',
      { match: { amount: 1.5 } },
      'match.amount: expected an integer amount in cents or a range { "min"?, "max"? }, got 1.5',
    ],
    ['inverted range', { match: { amount: { min: 5, max: 2 } } }, 'match.amount.min: "min" must not be greater than "max"'],
    ['empty range', { match: { amount: {} } }, 'match.amount: give "min", "max" or both'],
    ['bad currency', { match: { currency: 'euro' } }, 'match.currency: expected a three-letter ISO 4217 code, got "euro"'],
    [
      'card with spaces',
      { match: { card_number: '4242 4242 4242 4242' } },
      'match.card_number: expected the card number as 8 to 19 digits',
    ],
    [
      'bad interval',
      { match: { plan: { interval: 'monthly' } } },
      'match.plan.interval: expected "day", "week", "month" or "year", got "monthly"',
    ],
    ['non-string metadata value', { match: { metadata: { 'order type': 1 } } }, 'match.metadata["order type"]: expected a string, got 1'],
    ['bad applies_to', { match: { applies_to: 'refund' } }, 'match.applies_to: expected "transaction" or "subscription", got "refund"'],
  ])('rejects %s', (_name, rule, message) => {
    expect(() => parseScenario(oneRule(rule), 'bad.json')).toThrow(`bad.json: rules[0] ("r").${message}`);
  });

  it('rejects duplicate rule names', () => {
    const file = {
      name: 'x',
      rules: [
        { name: 'a', match: {}, steps: [] },
        { name: 'a', match: {}, steps: [] },
      ],
    };
    expect(() => parseScenario(file, 'bad.json')).toThrow('bad.json: rules[1] ("a").name: duplicate rule name (also rules[0])');
  });
});
