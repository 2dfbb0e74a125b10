import { describe, expect, it } from 'vitest';
import { parseScenario, type LoadedScenario } from '../../../src/features/scenarios/load.js';
import { describeScenarios, findRule, type MatchInput } from '../../../src/features/scenarios/match.js';

/** A scenario of rules, each `[name, match]` with a single SUCCEEDED step. */
function scenario(name: string, rules: [string, Record<string, unknown>][]): LoadedScenario {
  return parseScenario(
    { name, rules: rules.map(([ruleName, match]) => ({ name: ruleName, match, steps: [{ outcome: 'SUCCEEDED' }] })) },
    `${name}.json`,
  );
}

const base: MatchInput = { kind: 'transaction', amount: 1000, currency: 'USD' };

/** The name of the rule of a one-rule scenario with `match` that `input` hits, or null. */
function hit(match: Record<string, unknown>, input: Partial<MatchInput>): string | null {
  return findRule([scenario('s', [['rule', match]])], { ...base, ...input })?.rule.name ?? null;
}

describe('findRule', () => {
  it('an empty match matches everything', () => {
    expect(hit({}, {})).toBe('rule');
    expect(hit({}, { kind: 'subscription', plan: { name: 'x' } })).toBe('rule');
  });

  it('amount: exact and inclusive ranges', () => {
    expect(hit({ amount: 1000 }, {})).toBe('rule');
    expect(hit({ amount: 1001 }, {})).toBeNull();
    expect(hit({ amount: { min: 1000, max: 2000 } }, { amount: 1000 })).toBe('rule');
    expect(hit({ amount: { min: 1000, max: 2000 } }, { amount: 2000 })).toBe('rule');
    expect(hit({ amount: { min: 1000, max: 2000 } }, { amount: 999 })).toBeNull();
    expect(hit({ amount: { min: 1000, max: 2000 } }, { amount: 2001 })).toBeNull();
    expect(hit({ amount: { min: 5000 } }, { amount: 10 ** 9 })).toBe('rule');
    expect(hit({ amount: { max: 50 } }, { amount: 51 })).toBeNull();
  });

  it('currency: case-insensitive', () => {
    expect(hit({ currency: 'usd' }, { currency: 'USD' })).toBe('rule');
    expect(hit({ currency: 'EUR' }, { currency: 'USD' })).toBeNull();
  });

  it('card_number: exact, spaces and dashes in the request ignored', () => {
    expect(hit({ card_number: '4242424242424242' }, { cardNumber: '4242 4242-4242 4242' })).toBe('rule');
    expect(hit({ card_number: '4242424242424242' }, { cardNumber: '4111111111111111' })).toBeNull();
    expect(hit({ card_number: '4242424242424242' }, { cardNumber: null })).toBeNull();
    expect(hit({ card_number: '4242424242424242' }, {})).toBeNull();
  });

  it('customer_email: exact or with * wildcards, case-insensitive', () => {
    expect(hit({ customer_email: 'Anna@Example.com' }, { customerEmail: 'anna@example.COM' })).toBe('rule');
    expect(hit({ customer_email: 'anna@example.com' }, { customerEmail: 'hanna@example.com' })).toBeNull();
    expect(hit({ customer_email: '*@decline.test' }, { customerEmail: 'bob@DECLINE.test' })).toBe('rule');
    expect(hit({ customer_email: '*@decline.test' }, { customerEmail: 'bob@decline.test.com' })).toBeNull();
    expect(hit({ customer_email: '*@decline.test' }, { customerEmail: 'bob@declineXtest' })).toBeNull();
    expect(hit({ customer_email: 'ci+*@example.com' }, { customerEmail: 'ci+run42@example.com' })).toBe('rule');
    expect(hit({ customer_email: '*@decline.test' }, { customerEmail: null })).toBeNull();
  });

  it('metadata: a subset with exact values', () => {
    const match = { metadata: { flow: 'refund', region: 'eu' } };
    expect(hit(match, { metadata: { flow: 'refund', region: 'eu', order: '42' } })).toBe('rule');
    expect(hit(match, { metadata: { flow: 'refund' } })).toBeNull();
    expect(hit(match, { metadata: { flow: 'refund', region: 'EU' } })).toBeNull();
    expect(hit(match, { metadata: null })).toBeNull();
    expect(hit({ metadata: { toString: 'x' } }, { metadata: {} })).toBeNull();
    expect(hit({ metadata: {} }, {})).toBe('rule');
  });

  it('payment_channel_code: case-insensitive', () => {
    expect(hit({ payment_channel_code: 'PROMPTPAY' }, { paymentChannelCode: 'promptpay' })).toBe('rule');
    expect(hit({ payment_channel_code: 'PROMPTPAY' }, { paymentChannelCode: 'PIX' })).toBeNull();
    expect(hit({ payment_channel_code: 'PROMPTPAY' }, {})).toBeNull();
  });

  it('plan: name and interval, only for requests with a plan', () => {
    const sub: Partial<MatchInput> = { kind: 'subscription', plan: { name: 'gold', interval: 'month' } };
    expect(hit({ plan: { name: 'gold' } }, sub)).toBe('rule');
    expect(hit({ plan: { interval: 'month' } }, sub)).toBe('rule');
    expect(hit({ plan: { name: 'gold', interval: 'year' } }, sub)).toBeNull();
    expect(hit({ plan: { name: 'Gold' } }, sub)).toBeNull();
    expect(hit({ plan: {} }, sub)).toBe('rule');
    expect(hit({ plan: {} }, { kind: 'transaction' })).toBeNull();
  });

  it('applies_to: transactions, subscriptions, or both when absent', () => {
    expect(hit({ applies_to: 'transaction' }, { kind: 'transaction' })).toBe('rule');
    expect(hit({ applies_to: 'transaction' }, { kind: 'subscription' })).toBeNull();
    expect(hit({ applies_to: 'subscription' }, { kind: 'subscription' })).toBe('rule');
    expect(hit({ applies_to: 'subscription' }, { kind: 'transaction' })).toBeNull();
  });

  it('all conditions must hold', () => {
    const match = { amount: 1000, currency: 'USD', customer_email: '*@x.test' };
    expect(hit(match, { customerEmail: 'a@x.test' })).toBe('rule');
    expect(hit(match, { customerEmail: 'a@x.test', currency: 'EUR' })).toBeNull();
    expect(hit(match, { customerEmail: 'a@y.test' })).toBeNull();
  });

  it('the first matching rule wins, across scenarios in order', () => {
    const first = scenario('first', [
      ['big', { amount: { min: 5000 } }],
      ['usd', { currency: 'USD' }],
    ]);
    const second = scenario('second', [['anything', {}]]);
    expect(findRule([first, second], { ...base, amount: 9000 })).toMatchObject({ scenario: 'first', rule: { name: 'big' } });
    expect(findRule([first, second], base)).toMatchObject({ scenario: 'first', rule: { name: 'usd' } });
    expect(findRule([first, second], { ...base, currency: 'EUR' })).toMatchObject({ scenario: 'second', rule: { name: 'anything' } });
    expect(findRule([second, first], { ...base, amount: 9000 })).toMatchObject({ scenario: 'second' });
    expect(findRule([first], { ...base, currency: 'EUR' })).toBeNull();
    expect(findRule([], base)).toBeNull();
  });
});

describe('describeScenarios', () => {
  it('summarises scenarios as plain JSON, defaults filled in', () => {
    const loaded = parseScenario(
      {
        name: 'demo',
        description: 'a demo',
        rules: [{ name: 'slow', match: { amount: 5 }, steps: [{ outcome: 'SUCCEEDED', after_seconds: 9 }, { webhook_failures: 1 }] }],
      },
      'demo.json',
    );
    const summary = describeScenarios([loaded]);
    expect(summary).toEqual([
      {
        name: 'demo',
        source: 'demo.json',
        description: 'a demo',
        rules: [
          {
            name: 'slow',
            description: null,
            match: { amount: 5 },
            steps: [
              { outcome: 'SUCCEEDED', after_seconds: 9 },
              { webhook_failures: 1, status: 503 },
            ],
          },
        ],
      },
    ]);
    expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);
  });
});

describe('findRule with a pathological customer_email pattern', () => {
  it('*a*a*a*a*a*a*X against a long address answers (the regex it replaced backtracked for seconds)', () => {
    const email = `${'a'.repeat(60)}@example.com`;
    expect(hit({ customer_email: '*a*a*a*a*a*a*X' }, { customerEmail: email })).toBeNull();
    expect(hit({ customer_email: '*a*a*a*a*a*a*M' }, { customerEmail: email })).toBe('rule');
  });
});
