/**
 * docs/scenarios.md stays true: its magic-values table is the one generated
 * from scenarios/default.json, and its example scenario file is a valid one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenarioText } from '../../../src/features/scenarios/load.js';
import { magicValuesTable } from '../../support/magic-values.js';

const doc = readFileSync(new URL('../../../docs/scenarios.md', import.meta.url), 'utf8');

describe('docs/scenarios.md', () => {
  it('its magic-values table is generated from scenarios/default.json', () => {
    const table = /<!-- magic-values:start -->\n([\s\S]*?)\n<!-- magic-values:end -->/.exec(doc)?.[1];
    expect(table, 'regenerate with: npx tsx test/scenarios/magic-values.ts').toBe(magicValuesTable());
  });

  it('its example scenario file loads', () => {
    const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const example = blocks.find((b) => b.includes('"rules"')) ?? '';
    const loaded = parseScenarioText(example, 'docs example');
    expect(loaded.rules.map((r) => r.name)).toEqual([
      'insufficient funds card',
      'slow EUR with a partial refund',
      'second renewal bounces once',
    ]);
  });
});
