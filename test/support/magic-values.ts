/**
 * Renders the magic-values table of the README from
 * `scenarios/default.json` (its rules' matches and descriptions), so the documentation is
 * generated from the scenario the sandbox runs and a test can keep the two identical.
 * Print it with `npx tsx test/scenarios/magic-values.ts`.
 */
import { pathToFileURL } from 'node:url';
import { loadScenarioFile } from '../../src/features/scenarios/load.js';
import { defaultScenarioPath } from '../../src/core/config.js';
import type { ScenarioMatch } from '../../src/features/scenarios/schema.js';

const DEFAULT_SCENARIO_PATH = defaultScenarioPath();

const code = (text: string) => `\`${text}\``;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** What a rule's match asks for, in words. */
function trigger(match: ScenarioMatch): string {
  const parts: string[] = [];
  if (match.card_number) parts.push(`card ${code(match.card_number)}`);
  if (match.amount !== undefined) {
    parts.push(typeof match.amount === 'number' ? `amount ${code(String(match.amount))}` : `amount ${code(JSON.stringify(match.amount))}`);
  }
  if (match.currency) parts.push(`currency ${code(match.currency)}`);
  if (match.customer_email) parts.push(`customer e-mail ${code(match.customer_email)}`);
  if (match.metadata) parts.push(`metadata ${code(JSON.stringify(match.metadata))}`);
  if (match.payment_channel_code) parts.push(`payment_channel_code ${code(match.payment_channel_code)}`);
  if (match.plan?.name) parts.push(`plan.name ${code(match.plan.name)}`);
  if (match.plan?.interval) parts.push(`plan.interval ${code(match.plan.interval)}`);
  const what = parts.join(', ') || 'anything';
  return match.applies_to ? `${what} (${match.applies_to}s only)` : what;
}

/** The Markdown table of the default scenario's magic values, one row per rule in matching order. */
export function magicValuesTable(path = DEFAULT_SCENARIO_PATH): string {
  const scenario = loadScenarioFile(path);
  const rows = scenario.rules.map((rule) => `| ${cell(trigger(rule.match))} | ${cell(rule.description ?? rule.name)} |`);
  return ['| Magic value | What happens |', '|---|---|', ...rows].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(magicValuesTable());
