/**
 * The deployment examples parse and say what the docs promise: compose.yaml builds the
 * image with the data volume, --db in it, the public URL and the app's service as webhook
 * target, with nothing podman refuses; the GitHub Actions example installs the sandbox and
 * starts it with a bounded wait (its steps run in test/e2e/recipes/); the Dockerfile keeps a maintained Node LTS base, a non-root user and a HEALTHCHECK
 * that does not hard-code the port. package.json names the repository that `npm publish
 * --provenance` checks, and the README's install-before-release lines use that URL.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const read = (file: string): string => readFileSync(root + file, 'utf8');

interface ComposeService {
  build?: string;
  ports?: string[];
  command?: string[];
  volumes?: string[];
  extra_hosts?: string[];
}

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml')) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
  const service = compose.services['payment-sandbox']!;

  it('builds this Dockerfile and publishes port 4010 (another host port by PAYMENT_SANDBOX_HOST_PORT)', () => {
    expect(service.build).toBe('.');
    expect(service.ports).toContain('${PAYMENT_SANDBOX_HOST_PORT:-4010}:4010');
  });

  it('keeps --db on the named data volume at /data', () => {
    const [name, path] = service.volumes![0]!.split(':');
    expect(path).toBe('/data');
    expect(compose.volumes).toHaveProperty(name!);
    const db = service.command![service.command!.indexOf('--db') + 1];
    expect(db).toMatch(/^\/data\//);
  });

  it("gives payment links the public URL and sends webhooks to the app's service by name", () => {
    const cmd = service.command!;
    expect(cmd[cmd.indexOf('--public-url') + 1]).toBe('http://localhost:${PAYMENT_SANDBOX_HOST_PORT:-4010}');
    expect(cmd[cmd.indexOf('--notification-url') + 1]).toBe('http://app:3000/webhooks');
    expect(read('compose.yaml')).toContain('http://app:3000/webhooks (add your app as the service `app`');
    // The app calls the control API by the service name: that Host is allowed.
    expect(cmd[cmd.indexOf('--allowed-hosts') + 1]).toBe('payment-sandbox');
  });

  it('has nothing podman 4.3 refuses (no host-gateway, no host.docker.internal)', () => {
    expect(service.extra_hosts).toBeUndefined();
    expect(read('compose.yaml')).not.toMatch(/host-gateway|host\.docker\.internal/);
  });

  it('says how to start it and wait for it with a bound', () => {
    expect(read('compose.yaml')).toContain('docker compose up -d --wait --wait-timeout 60 payment-sandbox');
  });
});

describe('examples/github-actions.yml', () => {
  const workflow = parse(read('examples/github-actions.yml')) as {
    on: unknown;
    jobs: Record<string, { 'runs-on': string; steps: { name?: string; run?: string; uses?: string }[] }>;
  };

  it("is a workflow on ubuntu runners with no placeholder registry: the image goes to the repository owner's", () => {
    expect(workflow.on).toBeDefined();
    for (const job of Object.values(workflow.jobs)) expect(job['runs-on']).toMatch(/ubuntu/);
    expect(read('examples/github-actions.yml')).not.toMatch(/your-org|your-registry/);
    expect(read('examples/github-actions.yml')).toContain('ghcr.io/$owner/payment-sandbox:');
  });
});

describe('package.json and the install lines', () => {
  const pkg = JSON.parse(read('package.json')) as {
    version: string;
    repository?: { type: string; url: string };
    homepage?: string;
    bugs?: { url: string };
  };
  const url = pkg.repository?.url ?? '';
  const web = url.replace(/^git\+/, '').replace(/\.git$/, '');

  it('names its git repository, homepage and issues, as npm publish --provenance needs', () => {
    expect(pkg.repository?.type).toBe('git');
    expect(url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
    expect(pkg.homepage).toBe(`${web}#readme`);
    expect(pkg.bugs?.url).toBe(`${web}/issues`);
  });

  it('the README installs a tarball made by npm pack in a clone of that repository, and no placeholder', () => {
    const readme = read('README.md');
    const install = readme.slice(readme.indexOf('## Install and run'), readme.indexOf('## Five minutes with it'));
    expect(install).toContain(`git clone ${url.replace(/^git\+/, '')} `);
    expect(install).toContain('npm ci && npm pack');
    expect(install).toContain(`npm i -D ../payment-sandbox/payment-sandbox-${pkg.version}.tgz`);
    expect(install).toContain(`npm i -D ${url}`);
    expect(install).not.toMatch(/<[^>]*(url|URL)[^>]*>|your-org/);
  });

  it('the GitHub Actions example builds the image from the same repository', () => {
    expect(read('examples/github-actions.yml')).toContain(`PAYMENT_SANDBOX_REPOSITORY: ${web.replace('https://github.com/', '')}\n`);
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
