/**
 * `npm run lint` fails on an import cycle: dependency-cruiser's `no-circular` rule, with the
 * repository's own configuration (type-only imports counted), finds a cycle made of two files that
 * import each other's types, and finds none in src/.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type IReporterOutput } from 'dependency-cruiser';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const config = JSON.parse(readFileSync(join(root, '.dependency-cruiser.json'), 'utf8')) as {
  forbidden: NonNullable<ICruiseOptions['ruleSet']>['forbidden'];
  options: ICruiseOptions;
};
const options: ICruiseOptions = {
  ...config.options,
  ruleSet: { forbidden: config.forbidden },
  validate: true,
  tsConfig: { fileName: join(root, 'tsconfig.json') },
  baseDir: root,
  outputType: 'err',
};

function violations(result: IReporterOutput): string[] {
  if (typeof result.output === 'string') return result.output.split('\n').filter((line) => line.includes('no-circular'));
  return result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((f) => f()));

describe('the import-cycle rule of npm run lint', () => {
  it('fails on two modules that import each other, by type only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cycle-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'a.ts'), "import type { B } from './b';\nexport interface A { b?: B }\n");
    writeFileSync(join(dir, 'b.ts'), "import type { A } from './a';\nexport interface B { a?: A }\n");
    const result = await cruise([dir], options);
    expect(result.exitCode).toBeGreaterThan(0);
    expect(violations(result).length).toBeGreaterThan(0);
  });

  it('finds no cycle in src/', async () => {
    const result = await cruise([join(root, 'src')], options);
    expect(violations(result)).toEqual([]);
    expect(result.exitCode).toBe(0);
  }, 60_000);
});
