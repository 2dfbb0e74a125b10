import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScenarioError, loadScenarioFile, loadScenarios } from '../../../src/features/scenarios/load.js';
import { DEFAULT_BODY_LIMIT, defaultScenarioPath } from '../../../src/core/config.js';

const DEFAULT_SCENARIO_PATH = defaultScenarioPath();

const dir = mkdtempSync(join(tmpdir(), 'scenarios-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `content` (text, or a value to serialise) to a file in the temp dir; returns its path. */
function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

/** The error `load` throws, asserting it is a one-line ScenarioError. */
function errorOf(load: () => unknown): ScenarioError {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    const scenarioError = error as ScenarioError;
    expect(scenarioError.message).not.toContain('\n');
    return scenarioError;
  }
  throw new Error('expected a ScenarioError');
}

const rules = [
  { name: 'fast', match: { amount: 1 }, steps: [{ outcome: 'SUCCEEDED' }] },
  { name: 'declines', match: { amount: 2 }, steps: [{ outcome: 'FAILED' }] },
];

describe('loadScenarioFile', () => {
  it('names the file and the rule in a bad outcome', () => {
    const path = file('bad-outcome.json', {
      name: 'bad',
      rules: [...rules, { name: 'slow success', match: {}, steps: [{ outcome: 'SUCCEDED', after_seconds: 30 }] }],
    });
    const error = errorOf(() => loadScenarioFile(path));
    expect(error.source).toBe(path);
    expect(error.message).toBe(`${path}: rules[2] ("slow success").steps[0].outcome: expected "SUCCEEDED" or "FAILED", got "SUCCEDED"`);
  });

  it('points at an unknown key and suggests the right one', () => {
    const path = file('unknown-key.json', {
      name: 'bad',
      rules: [...rules, { name: 'typo', match: { card_numbr: '4242424242424242' }, steps: [] }],
    });
    expect(errorOf(() => loadScenarioFile(path)).message).toBe(
      `${path}: rules[2] ("typo").match.card_numbr: unknown key (did you mean "card_number"?)`,
    );
  });

  it('lists the allowed keys when no key is close', () => {
    const path = file('unknown-key-far.json', { name: 'bad', rules: [{ name: 'r', match: {}, steps: [], colour: 'red' }] });
    expect(errorOf(() => loadScenarioFile(path)).message).toBe(
      `${path}: rules[0] ("r").colour: unknown key (allowed: "name", "description", "match", "steps")`,
    );
  });

  it('reports a misspelt top-level key before the key it hides', () => {
    const path = file('rulez.json', { name: 'bad', rulez: rules });
    expect(errorOf(() => loadScenarioFile(path)).message).toBe(`${path}: rulez: unknown key (did you mean "rules"?) (and 1 more problem)`);
  });

  it('names a rule without a name by its index', () => {
    const path = file('nameless.json', { name: 'bad', rules: [{ match: {}, steps: [] }] });
    expect(errorOf(() => loadScenarioFile(path)).message).toBe(`${path}: rules[0].name: missing (expected a string)`);
  });

  it('rejects a refund without a SUCCEEDED outcome', () => {
    const path = file('refund.json', {
      name: 'bad',
      rules: [...rules, { name: 'refund only', match: {}, steps: [{ refund: {}, after_seconds: 60 }] }],
    });
    expect(errorOf(() => loadScenarioFile(path)).message).toBe(
      `${path}: rules[2] ("refund only").steps[0].refund: a "refund" step needs an { "outcome": "SUCCEEDED" } step in the same rule`,
    );
  });

  it('reports invalid JSON with its line and column', () => {
    const path = file('syntax.json', '{\n  "name": "bad",\n  "rules": [\n    { "name": "x", },\n  ]\n}\n');
    expect(errorOf(() => loadScenarioFile(path)).message).toBe(
      `${path}: invalid JSON at line 4, column 20: expected a property name in double quotes, found "}"`,
    );
  });

  it.each([
    ['an empty file', '', 'line 1, column 1: expected a value, found the end of the file'],
    ['a truncated file', '{"name": "x", "rules": [', 'line 1, column 25: expected a value, found the end of the file'],
    ['a trailing comma in an array', '[1,]', 'line 1, column 4: expected a value, found "]"'],
    ['a missing colon', '{\n "a" 2}', 'line 2, column 6: expected ":", found "2"'],
    ['text after the value', '{} x', 'line 1, column 4: expected the end of the file, found "x"'],
    ['an unterminated string', '{"a": "b', 'line 1, column 7: unterminated string'],
    ['a missing comma in an array', '[1 2]', 'line 1, column 4: expected "," or "]", found "2"'],
    ['an unclosed object after a value', '{"a": 1', 'line 1, column 8: expected "," or "}", found the end of the file'],
    ['a comment', '// note\n{}', 'line 1, column 1: comments are not allowed in JSON'],
    ['a bare word', '{"a": tru}', 'line 1, column 7: expected a value, found "t"'],
  ])('reports %s as invalid JSON', (_name, text, where) => {
    const path = file('syntax-case.json', text);
    expect(errorOf(() => loadScenarioFile(path)).message).toBe(`${path}: invalid JSON at ${where}`);
  });

  it('accepts a byte-order mark', () => {
    const path = file('bom.json', `\uFEFF${JSON.stringify({ name: 'bom', rules })}`);
    expect(loadScenarioFile(path).name).toBe('bom');
  });

  it('reports a missing file', () => {
    const path = join(dir, 'missing.json');
    expect(errorOf(() => loadScenarioFile(path)).message).toBe(`${path}: cannot read the file: no such file`);
  });

  it('reports a directory', () => {
    expect(errorOf(() => loadScenarioFile(dir)).message).toBe(`${dir}: cannot read the file: it is a directory`);
  });

  it('refuses a device and a file larger than the body limit, without reading them', () => {
    const large = file('large.json', ' '.repeat(DEFAULT_BODY_LIMIT + 1));
    expect(errorOf(() => loadScenarioFile(large)).message).toBe(
      `${large}: cannot read the file: larger than the body limit (${DEFAULT_BODY_LIMIT} bytes)`,
    );
    expect(errorOf(() => loadScenarioFile('/dev/zero')).message).toBe(
      '/dev/zero: cannot read the file: not a regular file (a device, a pipe or a socket)',
    );
  });
});

describe('loadScenarios', () => {
  it('loads files in order', () => {
    const extra = file('extra.json', { name: 'extra', rules });
    expect(loadScenarios([DEFAULT_SCENARIO_PATH, extra]).map((s) => [s.name, s.source])).toEqual([
      ['default', DEFAULT_SCENARIO_PATH],
      ['extra', extra],
    ]);
  });

  it('refuses two scenarios with the same name', () => {
    const a = file('same-a.json', { name: 'same', rules });
    const b = file('same-b.json', { name: 'same', rules: [] });
    expect(errorOf(() => loadScenarios([a, b])).message).toBe(`${b}: name: "same" is already the name of ${a}`);
  });
});
