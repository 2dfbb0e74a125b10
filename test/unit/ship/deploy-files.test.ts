/**
 * The deployment examples parse and say what the README promises: compose.yaml builds the
 * image with the data volume, --db in it, the public URL and a host webhook target; the
 * GitHub Actions example runs the image as a `services:` container with its port and health
 * check; the Dockerfile keeps a maintained Node LTS base, a non-root user and a HEALTHCHECK
 * that does not hard-code the port.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const read = (file: string): string => readFileSync(root + file, 'utf8');

interface ComposeService { build?: string; ports?: string[]; command?: string[]; volumes?: string[]; extra_hosts?: string[] }

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml')) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
  const service = compose.services['payment-sandbox']!;

  it('builds this Dockerfile and publishes port 4010', () => {
    expect(service.build).toBe('.');
    expect(service.ports).toContain('4010:4010');
  });

  it('keeps --db on the named data volume at /data', () => {
    const [name, path] = service.volumes![0]!.split(':');
    expect(path).toBe('/data');
    expect(compose.volumes).toHaveProperty(name!);
    const db = service.command![service.command!.indexOf('--db') + 1];
    expect(db).toMatch(/^\/data\//);
  });

  it('gives payment links the public URL and reaches a webhook receiver on the host', () => {
    const cmd = service.command!;
    expect(cmd[cmd.indexOf('--public-url') + 1]).toBe('http://localhost:4010');
    expect(cmd[cmd.indexOf('--notification-url') + 1]).toMatch(/^http:\/\/host\.docker\.internal:/);
    expect(service.extra_hosts).toContain('host.docker.internal:host-gateway');
  });
});

describe('examples/github-actions.yml', () => {
  const workflow = parse(read('examples/github-actions.yml')) as {
    on: unknown;
    jobs: Record<string, { 'runs-on': string; services: Record<string, { image: string; ports: string[]; options?: string; env?: Record<string, string> }>; steps: { run?: string; uses?: string }[] }>;
  };
  const job = Object.values(workflow.jobs)[0]!;
  const service = job.services['payment-sandbox']!;

  it('is a workflow with a job that runs the sandbox as a service container on port 4010', () => {
    expect(workflow.on).toBeDefined();
    expect(job['runs-on']).toMatch(/ubuntu/);
    expect(service.image).toMatch(/payment-sandbox/);
    expect(service.ports).toContain('4010:4010');
    expect(service.env?.PAYMENT_SANDBOX_PUBLIC_URL).toBe('http://localhost:4010');
  });

  it("health-checks it with the image's own check, and its steps use localhost:4010", () => {
    expect(service.options).toMatch(/--health-cmd "node docker\/healthcheck\.mjs"/);
    expect(job.steps.some((s) => s.run?.includes('http://localhost:4010/_sandbox/health'))).toBe(true);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('builds on a maintained Node LTS and keeps engines accepting Node 20', () => {
    const majors = [...dockerfile.matchAll(/^FROM node:(\d+)-bookworm-slim/gm)].map((m) => Number(m[1]));
    expect(majors.length).toBe(2);
    for (const major of majors) expect([22, 24]).toContain(major);
    const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe('>=20.19');
  });

  it('runs as a non-root user, with /data as a volume and a HEALTHCHECK without a fixed port', () => {
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^VOLUME \/data$/m);
    const health = /^HEALTHCHECK .*$/m.exec(dockerfile)?.[0] ?? '';
    expect(health).toContain('docker/healthcheck.mjs');
    expect(health).not.toContain('4010');
  });

  it('fails the install step when dist/ is missing after npm ci', () => {
    expect(dockerfile).toMatch(/RUN npm ci[^\n]*\\\n\s*&& test -f dist\/cli\.js/);
  });
});
