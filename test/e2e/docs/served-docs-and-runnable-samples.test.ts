/**
 * The sandbox serves its own docs over a real socket: `GET /docs` lists the pages, each
 * `GET /docs/<page>` answers HTML rendered at build time, links between pages and their
 * anchors resolve in the served HTML, each go-live finding code has its element, and an
 * unknown page is a 404 in the spec's envelope. Every block marked `<!-- runnable -->` in
 * README.md and docs/*.md runs as written, with bash, against a started sandbox (webhooks to
 * a receiver standing in for the merchant's handler on port 3000), and the go-live report of
 * that traffic has no finding. Needs `npm run build` (dist/docs).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINDING_CODES } from '../../../src/features/go-live/go-live.js';
import { startSandbox, type RunningSandbox } from '../../../src/index.js';
import { merchantCheckout } from '../../support/checkout.js';
import { startReceiver, type Receiver } from '../../support/receiver.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'payment-sandbox.js');
const SOURCES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
/** The served pages: README.md and docs/*.md, without the contributor pages (kept in the repository only). */
const PAGES = [
  'readme',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -3))
    .filter((page) => page !== 'benchmarks'),
];

/** The ```sh blocks that follow `<!-- runnable -->`, with the file they come from. */
function runnableBlocks(): Array<{ file: string; code: string }> {
  const blocks: Array<{ file: string; code: string }> = [];
  for (const file of SOURCES) {
    for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(/<!-- runnable -->\n+```sh\n([\s\S]*?)\n```\n/g))
      blocks.push({ file, code: m[1]! });
  }
  return blocks;
}

let sandbox: RunningSandbox;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  sandbox = await startSandbox({ quiet: true, notificationUrl: receiver.url });
});
afterAll(async () => {
  await sandbox?.stop();
  await receiver?.close();
});

describe('GET /docs over a real socket', () => {
  it('answers an HTML index that links every page', async () => {
    const res = await fetch(`${sandbox.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    for (const page of PAGES) expect(html, page).toContain(`href="/docs/${page}"`);
  });

  it('answers each page as HTML, with the panel stylesheet and one navigation', async () => {
    for (const page of PAGES) {
      const res = await fetch(`${sandbox.url}/docs/${page}`);
      expect(res.status, page).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain('<link rel="stylesheet" href="/theme.css">');
      expect(html).toContain('<nav class="docs-nav"');
      // links between served pages are rewritten; a contributor page is linked in the repository
      expect(html).not.toMatch(/href="(?!https:\/\/github\.com\/payment-sandbox\/payment-sandbox\/blob\/main\/)[^"]*\.md(#[^"]*)?"/);
    }
    expect((await fetch(`${sandbox.url}/docs/docs.css`)).headers.get('content-type')).toMatch(/^text\/css/);
    expect((await fetch(`${sandbox.url}/theme.css`)).status).toBe(200);
  });

  it('resolves every link between served pages, anchors included', async () => {
    const html = new Map<string, string>();
    for (const page of PAGES) html.set(page, await (await fetch(`${sandbox.url}/docs/${page}`)).text());
    const broken: string[] = [];
    for (const [page, text] of html) {
      for (const m of text.matchAll(/href="\/docs\/([a-z0-9-]+)(?:#([^"]+))?"/g)) {
        const [target, anchor] = [m[1]!, m[2]];
        if (target === 'conformance' && !html.has(target)) continue; // comes with its own feature
        const targetHtml = html.get(target);
        if (targetHtml === undefined) broken.push(`${page}: /docs/${target}`);
        else if (anchor !== undefined && !targetHtml.includes(`id="${anchor}"`)) broken.push(`${page}: /docs/${target}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
    expect(html.get('readme')).toContain('src="/docs/images/panel.png"');
    const image = await fetch(`${sandbox.url}/docs/images/panel.png`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it('has an element whose id is each go-live finding code in /docs/go-live', async () => {
    const html = await (await fetch(`${sandbox.url}/docs/go-live`)).text();
    for (const code of [...FINDING_CODES, 'webhook_unreachable', 'ignored_webhook_field']) expect(html, code).toContain(`id="${code}"`);
  });

  it('includes the text of each handler file the webhooks page names', async () => {
    const markdown = readFileSync(join(ROOT, 'docs', 'webhooks.md'), 'utf8');
    const files = [...markdown.matchAll(/^<!-- include: (\S+) -->$/gm)].map((m) => m[1]!);
    expect(files).toHaveLength(6);
    const html = await (await fetch(`${sandbox.url}/docs/webhooks`)).text();
    const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    for (const file of files.filter((f) => existsSync(join(ROOT, f)))) {
      const firstLine = readFileSync(join(ROOT, file), 'utf8').split('\n')[0]!;
      expect(html, file).toContain(escape(firstLine));
    }
  });

  it('answers an unknown page 404 in the error envelope', async () => {
    for (const path of ['/docs/no-such-page', '/docs/index', '/docs/..%2Fpackage', '/docs/images/nope.png']) {
      const res = await fetch(`${sandbox.url}${path}`);
      expect(res.status, path).toBe(404);
      const body = (await res.json()) as { type: string; code: string; status: number; message: string };
      expect(body, path).toMatchObject({ type: 'error', code: 'not_found', status: 404 });
    }
  });
});

describe('the runnable samples of the docs', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('run as written against a started sandbox, and leave a go-live report without findings', { timeout: 120_000 }, async () => {
    const blocks = runnableBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const before = receiver.received.length;
    for (const { file, code } of blocks) {
      const dir = merchantCheckout(mkdtempSync(join(tmpdir(), 'docs-runnable-')));
      dirs.push(dir);
      // `npx payment-sandbox` and `node_modules/.bin/payment-sandbox` are this checkout's CLI; the merchant's handler on port 3000 is the receiver.
      const script = `set -eo pipefail\nnpx() { shift; node ${JSON.stringify(BIN)} "$@"; }\n${code.replaceAll('http://127.0.0.1:3000', receiver.origin)}\n`;
      writeFileSync(join(dir, 'sample.sh'), script);
      const child = spawn('bash', ['sample.sh'], {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, SANDBOX: sandbox.url, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` },
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const exit = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(exit, `${file}:\n${code}\n${output}`).toBe(0);
      expect(output, file).not.toMatch(/"type":\s*"error"/);
    }
    await receiver.waitFor(before + 1, 10_000); // the subscription's first charge
    const report = await sandbox.report();
    expect(report.findings.map((f) => `${f.code}: ${f.detail}`)).toEqual([]);
  });
});
