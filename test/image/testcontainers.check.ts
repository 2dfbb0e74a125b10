/**
 * The README's Testcontainers recipe for Node (`<!-- testcontainers:node -->`), run as printed
 * against the real image (`npm run test:image`): with Docker where an engine answers, else
 * through podman's Docker-compatible API (`podman system service` on a socket of its own, with
 * `DOCKER_HOST` pointing at it, as the README says). The recipe starts the image with the
 * shipped shop fixtures and waits on `/_sandbox/health`; the test then checks the seeded state
 * over the mapped port, and that the container goes when stopped.
 *
 * `examples/testcontainers.mjs` (webhooks to the app on the host through
 * `TestContainers.exposeHostPorts`) is run too. That needs Testcontainers' port-forwarding helper
 * image; where the engine is podman (no registry here serves `testcontainers/sshd`) the check
 * builds `examples/testcontainers-sshd/Containerfile` and names it in SSHD_CONTAINER_IMAGE, the
 * setting Testcontainers reads for that image.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { verify } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIRECT, headers } from '../support/app.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const engine = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0 ? 'docker' : 'podman';
const buildArgs = engine === 'podman' ? (process.env.CONTAINER_BUILD_ARGS ?? '--format docker').split(/\s+/).filter(Boolean) : [];
const tag = 'payment-sandbox:testcontainers-check';
const sshdTag = 'payment-sandbox-sshd:testcontainers-check';

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
/** The port-forwarding helper containers that were there before this check: the rest are its own. */
let sshdBefore = new Set<string>();
const sshdContainers = (): string[] =>
  spawnSync(engine, ['ps', '-a', '-q', '--no-trunc', '--filter', 'label=org.testcontainers.sshd=true'], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);

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
    // The port forwarder for exposeHostPorts, built from Debian's openssh-server.
    const sshd = spawnSync(engine, ['build', ...buildArgs, '-t', sshdTag, 'examples/testcontainers-sshd'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 600_000,
    });
    if (sshd.status !== 0) throw new Error(`${engine} build examples/testcontainers-sshd: ${sshd.stderr || sshd.stdout}`);
    process.env.SSHD_CONTAINER_IMAGE = sshdTag;
  }
  sshdBefore = new Set(sshdContainers());
}, 960_000);

afterAll(async () => {
  const own = sshdContainers().filter((id) => !sshdBefore.has(id));
  if (own.length) spawnSync(engine, ['rm', '-f', ...own], { stdio: 'ignore', timeout: 60_000 });
  service?.kill('SIGTERM');
  if (socketDir) rmSync(socketDir, { recursive: true, force: true });
  spawnSync(engine, ['rmi', '-f', tag], { stdio: 'ignore', timeout: 60_000 });
  if (process.env.SSHD_CONTAINER_IMAGE === sshdTag) spawnSync(engine, ['rmi', '-f', sshdTag], { stdio: 'ignore', timeout: 60_000 });
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

describe(`examples/testcontainers.mjs (${engine})`, () => {
  it("delivers a settled checkout payment's signed webhook to the app on the host, and its payment_url opens", async () => {
    const received: { path: string; signature: string; body: string }[] = [];
    const app = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          path: req.url ?? '',
          signature: String(req.headers.signature ?? ''),
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":"200","message":"SUCCESS"}');
      });
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    const appPort = (app.address() as AddressInfo).port;
    const recipeModule = (await import(join(root, 'examples/testcontainers.mjs'))) as {
      startPaymentSandbox: (o: { appPort: number; image: string }) => ReturnType<Start>;
    };
    const { container, url, apiUrl } = await recipeModule.startPaymentSandbox({ appPort, image: tag });
    try {
      const { accounts } = (await (await fetch(`${url}/_sandbox/credentials`)).json()) as {
        accounts: { account_id: string; api_key: string; name: string }[];
      };
      const checkout = accounts.find((a) => a.name === 'checkout')!;
      const created = await fetch(`${apiUrl}/transactions`, {
        method: 'POST',
        headers: { ...headers(checkout), 'idempotency-key': `testcontainers-${process.pid}` },
        body: JSON.stringify({
          amount: 2500,
          currency: 'USD',
          description: 'Order 1',
          external_identifier: 'tc-1',
          return_url: 'http://127.0.0.1:3000/thanks',
        }),
      });
      expect(created.status).toBe(201);
      const tx = (await created.json()) as { id: string; payment_url: string };
      expect(tx.payment_url).toBe(`${url}/pay/${tx.id}`);
      const page = await fetch(tx.payment_url);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/25\.00/);

      expect((await fetch(`${url}/_sandbox/transactions/${tx.id}/settle`, { method: 'POST' })).status).toBeLessThan(300);
      const deadline = Date.now() + 30_000;
      while (!received.some((r) => r.body.includes(tx.id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      const webhook = received.find((r) => r.body.includes(tx.id));
      expect(webhook, 'the payment webhook reached the app on the host').toBeDefined();
      expect(webhook!.path).toBe('/webhooks');
      const publicKey = await (await fetch(`${url}/_sandbox/webhook-public-key`)).text();
      expect(verify('sha256', Buffer.from(webhook!.body), publicKey, Buffer.from(webhook!.signature, 'base64'))).toBe(true);
      expect(JSON.parse(webhook!.body)).toMatchObject({ ll_transaction_id: tx.id, merchant_transaction_id: 'tc-1' });
    } finally {
      await container.stop();
      app.close();
    }
  });
});
