/**
 * The README's Testcontainers recipe for Node (`<!-- testcontainers:node -->`), run as printed
 * against the real image (`npm run test:image`): with Docker where an engine answers, else
 * through podman's Docker-compatible API (`podman system service` on a socket of its own, with
 * `DOCKER_HOST` pointing at it, as the README says). The recipe starts the image with the
 * shipped shop fixtures and waits on `/_sandbox/health`; the test then checks the seeded state
 * over the mapped port, and that the container goes when stopped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIRECT, headers } from '../support/app.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const engine = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0 ? 'docker' : 'podman';
const buildArgs = engine === 'podman' ? (process.env.CONTAINER_BUILD_ARGS ?? '--format docker').split(/\s+/).filter(Boolean) : [];
const tag = 'payment-sandbox:testcontainers-check';

/** The README's Node recipe, exactly as printed between its markers. */
function readmeRecipe(): string {
  const readme = readFileSync(join(root, 'docs', 'ci.md'), 'utf8');
  const block = /<!-- testcontainers:node -->\s*```js\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('docs/ci.md has no <!-- testcontainers:node --> block');
  return block[1]!;
}

type Start = () => Promise<{ container: { stop(): Promise<unknown>; getId(): string }; url: string; apiUrl: string }>;

/** The recipe's `startPaymentSandbox`, with `testcontainers` as imported here and the image built here. */
async function recipe(): Promise<Start> {
  // A specifier in a variable: the typecheck does not need the devDependency installed.
  const specifier = 'testcontainers';
  const testcontainers = (await import(specifier)) as { GenericContainer: unknown; Wait: unknown };
  const code = readmeRecipe();
  expect(code).toMatch(/^import \{ GenericContainer, Wait \} from 'testcontainers';$/m);
  expect(code).toContain("Wait.forHttp('/_sandbox/health', 4010)");
  const body = code
    .replace(/^import .*$/m, '')
    .replace(/^export /m, '')
    .replace("new GenericContainer('payment-sandbox')", `new GenericContainer(${JSON.stringify(tag)})`);
  expect(body).toContain(JSON.stringify(tag));
  return new Function('GenericContainer', 'Wait', `${body}\nreturn startPaymentSandbox;`)(
    testcontainers.GenericContainer,
    testcontainers.Wait,
  ) as Start;
}

let service: ChildProcess | undefined;
let socketDir: string | undefined;

beforeAll(async () => {
  const build = spawnSync(engine, ['build', ...buildArgs, '-t', tag, '.'], { cwd: root, encoding: 'utf8', timeout: 900_000 });
  if (build.status !== 0) throw new Error(`${engine} build: ${build.stderr || build.stdout}`);
  if (engine === 'podman') {
    // podman's Docker-compatible API on a socket of this test's own; Testcontainers finds it by DOCKER_HOST.
    socketDir = mkdtempSync(join(tmpdir(), 'podman-api-'));
    const socket = join(socketDir, 'podman.sock');
    service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], { stdio: 'ignore' });
    const deadline = Date.now() + 30_000;
    while (!existsSync(socket)) {
      if (Date.now() > deadline) throw new Error('podman system service did not open its socket');
      await new Promise((r) => setTimeout(r, 100));
    }
    process.env.DOCKER_HOST = `unix://${socket}`;
    // Ryuk (the reaper) is an image from Docker Hub; the test stops its container itself.
    process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
    // podman publishes on IPv4 only; `localhost` may resolve to ::1 first.
    process.env.TESTCONTAINERS_HOST_OVERRIDE = '127.0.0.1';
  }
}, 960_000);

afterAll(async () => {
  service?.kill('SIGTERM');
  if (socketDir) rmSync(socketDir, { recursive: true, force: true });
  spawnSync(engine, ['rmi', '-f', tag], { stdio: 'ignore', timeout: 60_000 });
});

describe(`the README's Testcontainers recipe for Node (${engine})`, () => {
  it('starts the image, waits on /_sandbox/health, and serves the seeded state on the mapped port', async () => {
    const startPaymentSandbox = await recipe();
    const { container, url, apiUrl } = await startPaymentSandbox();
    try {
      expect(url).toMatch(/^http:\/\/[^:]+:\d+$/);
      expect((await fetch(`${url}/_sandbox/health`)).status).toBe(200);
      const list = (await (await fetch(`${apiUrl}/transactions?limit=100`, { headers: headers(DIRECT) })).json()) as {
        items: { external_identifier: string; status: string; refunded_amount: number }[];
      };
      expect(list.items.find((t) => t.external_identifier === 'order-1002')).toMatchObject({ status: 'SUCCEEDED', refunded_amount: 500 });
    } finally {
      const id = container.getId();
      await container.stop();
      expect(spawnSync(engine, ['ps', '-a', '-q', '--filter', `id=${id}`], { encoding: 'utf8' }).stdout.trim()).toBe('');
    }
  });
});
