/**
 * CI steering through the control API over a real socket (each is also checked without one in
 * the api tier): a reset that rewinds the clock persisted with --db across a restart, scenarios
 * loaded at run time, and a request log filtered by path.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { DIRECT, body, directPayment, headers, type PageBody } from '../../support/app.js';

type Page<T> = PageBody<T>;
interface Logged {
  id: number;
  method: string;
  path: string;
  status: number;
  merchant_account_id: string | null;
}

const jsonPost = (payload: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(payload),
});

/** A scenario that fails every USD payment of exactly 4242 (no start-up rule decides that amount). */
const DECLINE_4242 = {
  name: 'ci-runtime',
  description: 'loaded by a test',
  rules: [{ name: 'decline 42.42', match: { amount: 4242, currency: 'USD' }, steps: [{ outcome: 'FAILED' }] }],
};

describe('POST /_sandbox/reset with rewind_clock', () => {
  it('persists the rewound clock with --db across a restart (over a socket)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-rewind-'));
    const db = join(dir, 'sandbox.db');
    let server: RunningServer | undefined;
    try {
      server = await startServer({ port: 0, host: '127.0.0.1', db, ticker: false });
      await fetch(`${server.url}/_sandbox/clock/advance`, jsonPost({ seconds: 3600 * 24 * 30 }));
      await server.stop();
      server = await startServer({ port: 0, host: '127.0.0.1', db, ticker: false });
      expect(server.core.clock.offsetMs()).toBeGreaterThan(0); // the offset survived the restart
      const res = await fetch(`${server.url}/_sandbox/reset`, jsonPost({ rewind_clock: true }));
      expect(res.status).toBe(200);
      await server.stop();
      server = await startServer({ port: 0, host: '127.0.0.1', db, ticker: false });
      expect(await body(await fetch(`${server.url}/_sandbox/clock`))).toMatchObject({ offset_seconds: 0 });
    } finally {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('scenarios loaded at run time', () => {
  it('work over a socket', async () => {
    const server = await startServer({ port: 0, host: '127.0.0.1', ticker: false });
    try {
      const res = await fetch(`${server.url}/_sandbox/scenarios`, jsonPost(DECLINE_4242));
      expect(res.status).toBe(201);
      const tx = await fetch(`${server.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(directPayment({ amount: 4242 })),
      });
      expect((await body<{ status: string }>(tx)).status).toBe('FAILED');
      expect((await fetch(`${server.url}/_sandbox/scenarios/${encodeURIComponent('ci-runtime')}`, { method: 'DELETE' })).status).toBe(204);
    } finally {
      await server.stop();
    }
  });
});

describe('GET /_sandbox/requests filtered', () => {
  it('lets a CI test assert "my code called X" over a socket', async () => {
    const server = await startServer({ port: 0, host: '127.0.0.1', ticker: false });
    try {
      await fetch(`${server.url}/v4/transactions`, { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) });
      const url = `${server.url}/_sandbox/requests?method=POST&path=${encodeURIComponent('/v4/transactions')}&status=201&account_id=${DIRECT.account_id}`;
      const page = await body<Page<Logged>>(await fetch(url));
      expect(page.items.map((r) => [r.method, r.path, r.status, r.merchant_account_id])).toEqual([
        ['POST', '/v4/transactions', 201, DIRECT.account_id],
      ]);
    } finally {
      await server.stop();
    }
  });
});
