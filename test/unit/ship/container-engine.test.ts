/**
 * CI depends on nothing outside the repository: `.ci/run` sets up its container engine with
 * the project's own scripts/container-engine.sh (Docker where it answers, else podman from
 * Debian), and no CI, build or test file names a path outside the repository.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const script = join(root, 'scripts/container-engine.sh');
const fakeBin = mkdtempSync(join(tmpdir(), 'container-engine-'));
afterAll(() => rmSync(fakeBin, { recursive: true, force: true }));

/** A `docker` on PATH whose `info` succeeds: an engine that answers. */
function answeringDocker(): string {
  const docker = join(fakeBin, 'docker');
  writeFileSync(docker, '#!/bin/sh\n[ "$1" = info ] && exit 0\nexit 2\n');
  chmodSync(docker, 0o755);
  return fakeBin;
}

describe('scripts/container-engine.sh', () => {
  it('is valid bash', () => {
    const r = spawnSync('bash', ['-n', script], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  });

  it('uses Docker where it answers: setup prints the docker exports and installs nothing', () => {
    const path = `${answeringDocker()}:${process.env.PATH ?? ''}`;
    const r = spawnSync('bash', [script, 'setup'], { cwd: root, encoding: 'utf8', env: { ...process.env, PATH: path }, timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("export CONTAINER_ENGINE=docker\nexport CONTAINER_BUILD_ARGS=''\n");
    expect(r.stderr).toContain('docker answers');
  });

  it('plan says what setup would do without Docker, and changes nothing', () => {
    const noDocker = join(fakeBin, 'no-docker');
    spawnSync('mkdir', ['-p', noDocker]);
    writeFileSync(join(noDocker, 'docker'), '#!/bin/sh\nexit 1\n');
    chmodSync(join(noDocker, 'docker'), 0o755);
    const r = spawnSync('bash', [script, 'plan'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${noDocker}:${process.env.PATH ?? ''}`, WORK_DIR: join(fakeBin, 'work') },
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no docker: (would install from Debian: |podman, podman-compose, runc and debootstrap are installed)/);
    expect(r.stderr).toContain('node:24-bookworm-slim');
    expect(spawnSync('test', ['-e', join(fakeBin, 'work')]).status).not.toBe(0);
  });

  it('refuses an unknown command with its usage', () => {
    const r = spawnSync('bash', [script, 'teardown'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('usage: scripts/container-engine.sh setup|plan');
  });
});

describe('.ci/run', () => {
  it("sets up the engine with the project's own script, and keeps its other steps", () => {
    const run = readFileSync(join(root, '.ci/run'), 'utf8');
    expect(run).toContain('bash scripts/container-engine.sh setup');
    // Each step a command of its own: a line, a stage's command, or a line that sets a variable for it.
    for (const step of ['npm ci', 'npm test', 'npm run test:package', 'npm run test:image'])
      expect(run).toMatch(new RegExp(`^\\s*(stage [\\w-]+ |\\w+=\\S+ )?${step}$`, 'm'));
  });

  it('no CI, build, recipe or test file names a path outside the repository', () => {
    const files = spawnSync(
      'git',
      ['ls-files', '.ci', 'scripts', 'src', 'test', 'examples', '.github', 'Dockerfile', 'compose.yaml', 'package.json'],
      { cwd: root, encoding: 'utf8' },
    )
      .stdout.split('\n')
      .filter(Boolean);
    expect(files.length).toBeGreaterThan(10);
    const outside = files.filter((file) => /\.\.\/shared\b|\/work\//.test(readFileSync(join(root, file), 'utf8')));
    expect(outside).toEqual([]);
  });
});
