/**
 * Matching requests against scenario rules: which rule (if any) decides what happens to a new
 * transaction or subscription, and the summary of loaded scenarios that the control API shows
 * (`GET /_sandbox/scenarios`). Pure functions: no clock, no database.
 */
import type { MatchInput } from './vocabulary.js';
import { globMatch } from './glob.js';
import type { LoadedScenario } from './load.js';

export type { MatchInput };
import type { AmountMatch, ScenarioMatch, ScenarioRule } from './schema.js';
import type { ScenarioStep } from './step-schema.js';

/** The rule that decides a request, and the name of the scenario it belongs to. */
export interface RuleMatch {
  scenario: string;
  rule: ScenarioRule;
}

/**
 * The first rule that matches `input`, trying the scenarios in order and each scenario's
 * rules in order; null when none matches (the default: the payment stays PENDING).
 */
export function findRule(scenarios: LoadedScenario[], input: MatchInput): RuleMatch | null {
  for (const scenario of scenarios) {
    for (const rule of scenario.rules) {
      if (matches(rule.match, input)) return { scenario: scenario.name, rule };
    }
  }
  return null;
}

/**
 * Whether every condition of `match` holds for `input`. Currency and payment channel code
 * compare case-insensitively, the e-mail case-insensitively with `*` wildcards, metadata as a
 * subset with exact values, plan name and interval exactly.
 */
export function matches(match: ScenarioMatch, input: MatchInput): boolean {
  if (match.applies_to !== undefined && match.applies_to !== input.kind) return false;
  if (match.amount !== undefined && !amountMatches(match.amount, input.amount)) return false;
  if (match.currency !== undefined && match.currency.toUpperCase() !== input.currency.toUpperCase()) return false;
  if (match.card_number !== undefined) {
    const card = input.cardNumber?.replace(/[\s-]/g, '');
    if (card !== match.card_number) return false;
  }
  if (match.customer_email !== undefined) {
    const email = input.customerEmail?.trim();
    if (!email || !globMatch(match.customer_email, email)) return false;
  }
  if (match.metadata !== undefined) {
    const metadata = input.metadata ?? {};
    for (const [key, value] of Object.entries(match.metadata)) {
      if (!Object.hasOwn(metadata, key) || metadata[key] !== value) return false;
    }
  }
  if (match.payment_channel_code !== undefined) {
    const code = input.paymentChannelCode;
    if (!code || code.toUpperCase() !== match.payment_channel_code.toUpperCase()) return false;
  }
  if (match.plan !== undefined) {
    const plan = input.plan;
    if (!plan) return false;
    if (match.plan.name !== undefined && plan.name !== match.plan.name) return false;
    if (match.plan.interval !== undefined && plan.interval !== match.plan.interval) return false;
  }
  return true;
}

function amountMatches(match: AmountMatch, amount: number): boolean {
  if (typeof match === 'number') return amount === match;
  return (match.min === undefined || amount >= match.min) && (match.max === undefined || amount <= match.max);
}

/** One rule as shown by `GET /_sandbox/scenarios`. */
export interface RuleSummary {
  name: string;
  description: string | null;
  match: ScenarioMatch;
  steps: ScenarioStep[];
}

/** One loaded scenario as shown by `GET /_sandbox/scenarios`, rules in matching order. */
export interface ScenarioSummary {
  name: string;
  source: string;
  description: string | null;
  rules: RuleSummary[];
}

/** A JSON-friendly summary of the loaded scenarios, in matching order (defaults filled in). */
export function describeScenarios(scenarios: LoadedScenario[]): ScenarioSummary[] {
  return scenarios.map((scenario) => ({
    name: scenario.name,
    source: scenario.source,
    description: scenario.description ?? null,
    rules: scenario.rules.map((rule) => ({
      name: rule.name,
      description: rule.description ?? null,
      match: rule.match,
      steps: rule.steps,
    })),
  }));
}
