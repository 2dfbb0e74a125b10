import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../../src/features/scenarios/load.js';
import { defaultScenarioPath } from '../../../src/core/config.js';
import { findRule, type MatchInput } from '../../../src/features/scenarios/match.js';
import type { ScenarioStep } from '../../../src/features/scenarios/step-schema.js';

const DEFAULT_SCENARIO_PATH = defaultScenarioPath();

const scenario = loadScenarioFile(DEFAULT_SCENARIO_PATH);

/** Luhn check, kept local so this test does not trust the code it could be checking. */
function luhn(digits: string): boolean {
  let sum = 0;
  [...digits].reverse().forEach((ch, i) => {
    let d = Number(ch);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  });
  return sum % 10 === 0;
}

/** The steps the default scenario gives `input`, or null when it stays PENDING. */
function stepsFor(input: Partial<MatchInput>): ScenarioStep[] | null {
  return findRule([scenario], { kind: 'transaction', amount: 1234, currency: 'USD', ...input })?.rule.steps ?? null;
}

describe('default scenario', () => {
  it('the local Luhn check works', () => {
    expect(luhn('4111111111111111')).toBe(true);
    expect(luhn('4111111111111112')).toBe(false);
  });

  it('every card number is Luhn-valid', () => {
    const cards = scenario.rules.flatMap((rule) => (rule.match.card_number ? [rule.match.card_number] : []));
    expect(cards.length).toBeGreaterThanOrEqual(5);
    for (const card of cards) expect(luhn(card), card).toBe(true);
  });

  it('every rule has a description', () => {
    for (const rule of scenario.rules) expect(rule.description?.length ?? 0, rule.name).toBeGreaterThan(20);
    expect(scenario.description).toBeTruthy();
  });

  it('has no catch-all: an ordinary payment stays PENDING', () => {
    expect(scenario.rules.some((rule) => Object.keys(rule.match).length === 0)).toBe(false);
    expect(stepsFor({ cardNumber: '4111111111111111', customerEmail: 'anna@example.com' })).toBeNull();
    expect(stepsFor({ kind: 'subscription', plan: { name: 'gold', interval: 'month' } })).toBeNull();
  });

  it.each<[string, Partial<MatchInput>, ScenarioStep[]]>([
    ['card 4242424242424242', { cardNumber: '4242424242424242' }, [{ outcome: 'SUCCEEDED', after_seconds: 0 }]],
    ['card 5555555555554444', { cardNumber: '5555555555554444' }, [{ outcome: 'SUCCEEDED', after_seconds: 0 }]],
    ['card 4000000000000002', { cardNumber: '4000000000000002' }, [{ outcome: 'FAILED', after_seconds: 0 }]],
    ['card 4000000000000077', { cardNumber: '4000000000000077' }, [{ outcome: 'SUCCEEDED', after_seconds: 30 }]],
    ['card 4000000000000119', { cardNumber: '4000000000000119' }, [{ outcome: 'FAILED', after_seconds: 30 }]],
    [
      'card 4000000000000341',
      { cardNumber: '4000000000000341' },
      [
        { outcome: 'SUCCEEDED', after_seconds: 0 },
        { refund: { reason: 'sandbox: card 4000000000000341 is refunded automatically' }, after_seconds: 60 },
      ],
    ],
    ['amount 100001', { amount: 100001, paymentChannelCode: 'PROMPTPAY' }, [{ outcome: 'SUCCEEDED', after_seconds: 0 }]],
    ['amount 100002', { amount: 100002 }, [{ outcome: 'FAILED', after_seconds: 0 }]],
    ['amount 100003', { amount: 100003 }, [{ outcome: 'SUCCEEDED', after_seconds: 10 }]],
    ['amount 100004', { amount: 100004 }, [{ outcome: 'FAILED', after_seconds: 10 }]],
    ['email *@succeed.test', { customerEmail: 'Anna@Succeed.test' }, [{ outcome: 'SUCCEEDED', after_seconds: 0 }]],
    ['email *@decline.test', { customerEmail: 'bob@decline.test' }, [{ outcome: 'FAILED', after_seconds: 0 }]],
    [
      'metadata sandbox_webhook_failures 3',
      { metadata: { sandbox_webhook_failures: '3', order: '7' } },
      [
        { outcome: 'SUCCEEDED', after_seconds: 0 },
        { webhook_failures: 3, status: 503 },
      ],
    ],
    ['plan renewal-fails', { kind: 'subscription', plan: { name: 'renewal-fails', interval: 'month' } }, [{ renewal_fails: [1] }]],
    [
      'plan renewal-recovers',
      { kind: 'subscription', plan: { name: 'renewal-recovers' } },
      [{ renewal_outcomes: ['FAILED', 'SUCCEEDED'] }],
    ],
    ['plan first-charge-fails', { kind: 'subscription', plan: { name: 'first-charge-fails' } }, [{ outcome: 'FAILED', after_seconds: 0 }]],
  ])('%s', (_name, input, steps) => {
    expect(stepsFor(input)).toEqual(steps);
  });

  it('plan magic values apply to subscriptions only', () => {
    expect(stepsFor({ plan: { name: 'renewal-fails' } })).toBeNull();
  });

  it('a card beats an amount, an explicit metadata rule beats a card', () => {
    expect(stepsFor({ cardNumber: '4000000000000002', amount: 100001 })).toEqual([{ outcome: 'FAILED', after_seconds: 0 }]);
    expect(stepsFor({ cardNumber: '4000000000000002', metadata: { sandbox_webhook_failures: '3' } })?.[0]).toEqual({
      outcome: 'SUCCEEDED',
      after_seconds: 0,
    });
  });
});
