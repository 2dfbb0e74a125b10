/**
 * The fault steps of scenario files: `api_fault` (the syntax of X-Sandbox-Fault)
 * and `webhook_fault` (duplicate, out_of_order, delayed, bad_signature), and what the policy
 * makes of them.
 */
import { describe, expect, it } from 'vitest';
import { createScenarioPolicy, webhookFaultsOf } from '../../../src/features/scenarios/policy.js';
import { scenarioFileSchema } from '../../../src/features/scenarios/schema.js';
import { stepKind } from '../../../src/features/scenarios/step-schema.js';

const file = (steps: unknown[]) => ({ name: 'f', rules: [{ name: 'r', match: {}, steps }] });
const issues = (steps: unknown[]) => {
  const result = scenarioFileSchema.safeParse(file(steps));
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('fault steps', () => {
  it.each(['503', '503-after', '429', '429=5', 'timeout', 'timeout=5s', 'timeout-after', 'latency=800', 'reset', 'reset-after'])(
    'accepts api_fault %s',
    (value) => {
      expect(issues([{ api_fault: value }])).toEqual([]);
      expect(stepKind({ api_fault: value })).toBe('api_fault');
    },
  );

  it.each(['500', 'latency', 'timeout=5', 'reset-before', ''])('refuses api_fault "%s"', (value) => {
    expect(issues([{ api_fault: value }]).join('\n')).toMatch(/api_fault/);
  });

  it('a delayed webhook_fault needs seconds; out_of_order needs a refund step; a kind appears once', () => {
    expect(issues([{ webhook_fault: 'delayed' }]).join('\n')).toMatch(/seconds/);
    expect(issues([{ outcome: 'SUCCEEDED' }, { webhook_fault: 'out_of_order' }]).join('\n')).toMatch(/needs a "refund" step/);
    expect(issues([{ outcome: 'SUCCEEDED' }, { refund: {} }, { webhook_fault: 'out_of_order' }])).toEqual([]);
    expect(issues([{ webhook_fault: 'duplicate' }, { webhook_fault: 'duplicate' }]).join('\n')).toMatch(/at most one "duplicate"/);
    expect(issues([{ api_fault: '503' }, { api_fault: '429' }]).join('\n')).toMatch(/at most one "api_fault"/);
  });

  it('the policy answers the api_fault of the first matching rule and the webhook faults of a rule', () => {
    const parsed = scenarioFileSchema.parse({
      name: 's',
      rules: [
        { name: 'fail', match: { amount: 503 }, steps: [{ api_fault: '503-after' }] },
        {
          name: 'hooks',
          match: {},
          steps: [{ outcome: 'SUCCEEDED' }, { webhook_fault: 'duplicate' }, { webhook_fault: 'delayed', seconds: 30 }],
        },
      ],
    });
    const policy = createScenarioPolicy([{ ...parsed, source: 'test' }]);
    const input = { kind: 'transaction' as const, amount: 503, currency: 'USD' };
    expect(policy.apiFaultFor(input)).toEqual({ rule: 's/fail', fault: '503-after' });
    expect(policy.apiFaultFor({ ...input, amount: 100 })).toBeNull();
    expect(policy.webhookFaults('s/hooks')).toEqual([{ kind: 'duplicate' }, { kind: 'delayed', seconds: 30 }]);
    expect(webhookFaultsOf(parsed.rules[0]!.steps)).toEqual([]);
  });

  it("matches a create's rules once: its api_fault and its outcome are asked with the same input", () => {
    const parsed = scenarioFileSchema.parse({
      name: 's',
      rules: [
        { name: 'other', match: { amount: 7 }, steps: [{ outcome: 'FAILED' }] },
        { name: 'slow', match: { amount: 503 }, steps: [{ api_fault: 'latency=10' }, { outcome: 'FAILED' }] },
      ],
    });
    const policy = createScenarioPolicy([{ ...parsed, source: 'test' }]);
    let reads = 0;
    const input = {
      kind: 'transaction' as const,
      currency: 'USD',
      get amount() {
        reads += 1;
        return 503;
      },
    };
    expect(policy.apiFaultFor(input)).toEqual({ rule: 's/slow', fault: 'latency=10' });
    const matching = reads;
    expect(matching).toBeGreaterThan(0);
    expect(policy.forTransaction(input)?.rule).toBe('s/slow');
    expect(reads).toBe(matching);
    // Scenarios loaded in between are matched afresh.
    policy.addRuntime({
      ...scenarioFileSchema.parse({ name: 'new', rules: [{ name: 'r', match: { amount: 503 }, steps: [{ outcome: 'SUCCEEDED' }] }] }),
      source: 'run time',
    });
    expect(policy.forTransaction(input)?.rule).toBe('new/r');
  });
});
