/**
 * A delivery's body is stored once, over real sockets: ten 1 MB bodies sent to a handler that
 * always fails, each retried to its last attempt, grow the --db folder by about their own size
 * (not once per attempt), and `GET /_sandbox/deliveries/{id}` carries the body once, not per
 * attempt. Each attempt still keeps its own headers and answer.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIRECT } from '../../../support/app.js';
import { perTest } from '../../../support/servers.js';

const { defer, serve, receive } = perTest();
const MB = 1024 * 1024;

const folderBytes = (dir: string): number => readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);

describe("a delivery's body is stored once", () => {
  it(
    'ten failed 1 MB sends, every retry spent: the db folder grows by about the bodies, and the detail answer holds the body once',
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sandbox-bodies-'));
      defer(() => rmSync(dir, { recursive: true, force: true }));
      const receiver = await receive();
      receiver.respond = () => ({ status: 503, body: 'down' });
      const server = await serve({ db: join(dir, 'sandbox.db'), bodyLimit: 2 * MB });
      const before = folderBytes(dir);

      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await fetch(`${server.url}/_sandbox/webhooks/send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ account_id: DIRECT.account_id, url: receiver.url, body: { n: i, padding: 'x'.repeat(MB - 64) } }),
        });
        expect(res.status).toBe(201);
        ids.push(((await res.json()) as { id: string }).id);
      }
      // Every retry falls due within 30 hours of sandbox time; the advance answers once they had their attempt.
      for (let step = 0; step < 4; step++) {
        const advanced = await fetch(`${server.url}/_sandbox/clock/advance`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ seconds: 8 * 3600 }),
        });
        expect(advanced.status).toBe(200);
        await advanced.arrayBuffer();
      }
      const attempts = ids.map((id) => server.core.queries.deliveries.attemptsOf(id).length);
      expect(Math.min(...attempts)).toBeGreaterThanOrEqual(10);

      const grown = folderBytes(dir) - before;
      const detail = await fetch(`${server.url}/_sandbox/deliveries/${ids[0]!}`);
      const text = await detail.text();
      expect(detail.status).toBe(200);
      const delivery = JSON.parse(text) as { body: string; attempts: Record<string, unknown>[] };
      // Stored once: about 10 MB of bodies (and their WAL copies), not 10 MB per attempt.
      expect(grown).toBeLessThan(40 * MB);
      expect(text.length).toBeLessThan(1.5 * MB);
      expect(delivery.body.length).toBeGreaterThan(MB - 64);
      expect(delivery.attempts.length).toBe(attempts[0]);
      for (const attempt of delivery.attempts) {
        expect(attempt).not.toHaveProperty('request_body');
        expect(attempt).toMatchObject({ response_status: 503, response_body: 'down', ok: false });
        expect(Object.keys(attempt.request_headers as object)).toEqual(expect.arrayContaining(['signature', 'timestamp']));
      }
    },
  );
});
