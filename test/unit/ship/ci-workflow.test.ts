/**
 * .github/workflows/ci.yml runs the stages of .ci/run as parallel jobs: the same npm commands,
 * every tier of `npm test` (e2e in shards), the same Debian packages, and caches keyed by what
 * their entries depend on.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../..', import.meta.url));
interface Step {
  name?: string;
  run?: string;
  uses?: string;
  id?: string;
  with?: Record<string, string | boolean>;
  env?: Record<string, string>;
}
interface Job {
  container?: string | { image: string };
  strategy?: { matrix: Record<string, number[]> };
  steps: Step[];
}
const workflow = parse(readFileSync(root + '.github/workflows/ci.yml', 'utf8')) as {
  env: Record<string, string>;
  jobs: Record<string, Job>;
};
const jobs = Object.entries(workflow.jobs);
/** The shell lines .ci/run runs, without its comments. */
const script = readFileSync(root + '.ci/run', 'utf8')
  .split('\n')
  .filter((line) => !/^\s*#/.test(line))
  .map((line) => line.replace(/\s#.*$/, ''))
  .join('\n');
/** The npm commands in some text: `npm ci`, `npm test`, `npm run NAME`. */
const npmCommands = (text: string): string[] => [...text.matchAll(/\bnpm (ci|test|run [\w:-]+)/g)].map((m) => m[1]!);
const runs = (job: Job): string => job.steps.map((s) => s.run ?? '').join('\n');
/** The tiers of `npm test`: the projects of test/vitest.config.ts. */
const tiers = [...readFileSync(root + 'test/vitest.config.ts', 'utf8').matchAll(/\btier\('(\w+)'/g)].map((m) => m[1]!);

describe('.github/workflows/ci.yml', () => {
  it("runs .ci/run's npm commands, npm test as its tiers (vitest on the same config)", () => {
    const local = new Set(npmCommands(script));
    expect([...local].sort()).toEqual(['ci', 'run lint', 'run test:image', 'run test:package', 'run typecheck', 'test']);
    const remote = new Set(jobs.flatMap(([, job]) => npmCommands(runs(job))));
    expect([...remote].sort()).toEqual([...local].filter((c) => c !== 'test').sort());
    // Every job installs as the README says before it runs anything of the project.
    for (const [name, job] of jobs) expect(npmCommands(runs(job))[0], name).toBe('ci');

    const vitest = jobs.flatMap(([, job]) => runs(job).split('\n')).filter((line) => /\bvitest run\b/.test(line));
    expect(vitest.length).toBeGreaterThan(0);
    for (const line of vitest) expect(line).toMatch(/^npx vitest run --config test\/vitest\.config\.ts( --project \w+)+( --shard=.+)?$/);
    const projects = vitest.flatMap((line) => [...line.matchAll(/--project (\w+)/g)].map((m) => m[1]!));
    expect(tiers).toEqual(expect.arrayContaining(['unit', 'api', 'e2e']));
    expect([...projects].sort()).toEqual([...tiers].sort());
  });

  it('splits the e2e tier into shards 1..n of a matrix', () => {
    const e2e = workflow.jobs.e2e!;
    const shards = e2e.strategy!.matrix.shard!;
    const line = runs(e2e)
      .split('\n')
      .find((l) => l.includes('--project e2e'))!;
    expect(line).toContain(`--shard=\${{ matrix.shard }}/${shards.length}`);
    expect(shards).toEqual(shards.map((_, i) => i + 1));
    expect(shards.length).toBeGreaterThan(1);
  });

  it('installs the Debian packages .ci/run installs, where the browser and the handlers run', () => {
    const local = [...script.matchAll(/packages\+=\(([\w-]+)\)/g)].map((m) => m[1]!).sort();
    expect(local).toEqual(['chromium', 'default-jdk-headless', 'golang-go', 'php-cli', 'python3-cryptography', 'ruby']);
    const e2e = workflow.jobs.e2e!;
    expect(typeof e2e.container === 'string' ? e2e.container : e2e.container?.image).toMatch(/bookworm/);
    const install = /apt-get install -y ([\w -]+)$/m.exec(runs(e2e))?.[1]?.trim().split(/\s+/).sort();
    expect(install).toEqual(local);
  });

  it('keys each cache by what it depends on, and restores only the same key', () => {
    const caches = jobs.flatMap(([, job]) => job.steps.filter((s) => s.uses?.startsWith('actions/cache@')));
    for (const c of caches) expect(c.with?.['restore-keys'], String(c.with?.key)).toBeUndefined();
    const keyOf = (path: string): string => String(caches.find((c) => c.with?.path === path)?.with?.key);
    const dir = workflow.env.PAYMENT_SANDBOX_CI_CACHE!;
    expect(keyOf(`${dir}/package-consumer`)).toMatch(/steps\.node\.outputs\.version/);
    expect(keyOf(`${dir}/package-consumer`)).toContain("hashFiles('package-lock.json', 'package.json')");
    expect(keyOf(`${dir}/webhook-handlers`)).toContain("hashFiles('examples/webhook-handlers/go/**', 'examples/webhook-handlers/java/**')");
    expect(keyOf(workflow.env.npm_config_cache!)).toContain("hashFiles('package-lock.json')");
  });

  it('runs the image checks on the image it built from the layer cache', () => {
    const image = workflow.jobs.image!;
    const build = image.steps.find((s) => s.uses?.startsWith('docker/build-push-action@'))!;
    expect(build.with).toMatchObject({ load: true, 'cache-from': 'type=gha' });
    const checks = image.steps.find((s) => s.run === 'npm run test:image')!;
    expect(checks.env?.PAYMENT_SANDBOX_IMAGE).toBe(build.with!.tags);
  });
});
