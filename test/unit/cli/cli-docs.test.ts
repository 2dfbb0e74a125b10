/**
 * docs/options.md's table stays true to the CLI: one row per option of `--help` (but `--version`),
 * each naming its `PAYMENT_SANDBOX_*` variable and, where the option has one, its default.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli.js';
import { ENV_OPTIONS, envName, optionsSchema } from '../../../src/core/config.js';
import { latencyText, type LatencyDistribution } from '../../../src/core/http/load-rehearsal.js';

const doc = readFileSync(new URL('../../../docs/options.md', import.meta.url), 'utf8');
const table = /\| flag \| variable \| default \| meaning \|\n\|---\|---\|---\|---\|\n((?:\|.*\n)+)/.exec(doc)?.[1] ?? '';
const rows = table
  .trim()
  .split('\n')
  .map((line) =>
    line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((cell) => cell.trim()),
  );
const rowOf = (flag: string): string[] | undefined => rows.find(([cell]) => new RegExp(`\`(-\\w, )?${flag}[ \`]`).test(cell ?? ''));
const options = buildProgram().options.filter((o) => o.long !== '--help' && o.long !== '--version');

describe('docs/options.md options table', () => {
  it('has one row per option of the CLI, and no other', () => {
    expect(rows.filter(([flag]) => flag!.includes('--')).length).toBe(options.length);
    for (const option of options) expect(rowOf(option.long!), option.long).toBeDefined();
  });

  it('names the variable of each option that has one', () => {
    for (const option of options) {
      const name = option.attributeName();
      const variable = rowOf(option.long!)![1]!;
      if ((ENV_OPTIONS as readonly string[]).includes(name)) expect(variable, option.long).toContain(`\`${envName(name)}\``);
      else expect(variable, option.long).toBe('');
    }
  });

  it('shows the default the code applies', () => {
    const defaults = optionsSchema.parse({});
    for (const option of options) {
      const value = (defaults as Record<string, unknown>)[option.attributeName()];
      const shown = rowOf(option.long!)![2]!;
      if (typeof value === 'boolean') expect(shown, option.long).toBe(value ? 'on' : 'off');
      else if (typeof value === 'string' || typeof value === 'number') expect(shown, option.long).toBe(`\`${value}\``);
      // A latency is written as the option takes it: `MS`, or `p50=MS,p99=MS`.
      else if (typeof value === 'object' && value !== null && 'p50Ms' in value)
        expect(shown, option.long).toBe(`\`${latencyText(value as LatencyDistribution)}\``);
      else if (option.long !== '--version' && !Array.isArray(value)) expect(shown, option.long).toBe('none');
    }
  });
});
