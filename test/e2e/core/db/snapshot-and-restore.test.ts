/**
 * Snapshots over real sockets: `GET /_sandbox/snapshot` is an SQLite file made with the online
 * backup while the sandbox keeps serving (taken under concurrent creates, then restored and
 * checked for consistency), and `restore` / `--restore` start a sandbox from it with every
 * account and its keys, the records, the clock, the deliveries and the idempotency keys.
 * Fixtures at start (`startSandbox({ fixtures })`) are here too: files and documents.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../../src/index.js';
import { directPayment } from '../../../support/app.js';
import { startReceiver } from '../../../support/receiver.js';

type Json = Record<string, unknown>;
const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-snapshot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const running: RunningSandbox[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
});
async function start(options: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> {
  const s = await startSandbox({ quiet: true, ...options });
  running.push(s);
  return s;
}

function api(s: RunningSandbox, account = s.credentials.direct) {
  return async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
    const res = await fetch(`${s.apiUrl}${path}`, {
      method,
      headers: { ...account.headers, 'content-type': 'application/json', ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
  };
}

async function saveSnapshot(s: RunningSandbox, name: string): Promise<string> {
  const res = await fetch(`${s.url}/_sandbox/snapshot`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/vnd.sqlite3');
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

describe('GET /_sandbox/snapshot and restore', () => {
  it('is taken while concurrent creates go on over the socket, and restores to a consistent state', async () => {
    const s = await start({ requestLogLimit: 100_000 });
    const post = api(s);
    let n = 0;
    let stop = false;
    // Four writers create (with idempotency keys) and settle, as fast as the sandbox answers.
    const writer = async (): Promise<number> => {
      let done = 0;
      while (!stop) {
        const key = `load-${n++}`;
        const created = await post('POST', '/transactions', directPayment({ external_identifier: key }), { 'idempotency-key': key });
        expect(created.status).toBe(201);
        await fetch(`${s.url}/_sandbox/transactions/${String(created.body.id)}/settle`, { method: 'POST' });
        done += 1;
      }
      return done;
    };
    const writers = [writer(), writer(), writer(), writer()];
    while (n < 40) await new Promise((r) => setTimeout(r, 5));
    const file = await saveSnapshot(s, 'under-load.sqlite');
    while (n < 80) await new Promise((r) => setTimeout(r, 5)); // the sandbox kept serving during and after it
    stop = true;
    const total = (await Promise.all(writers)).reduce((a, b) => a + b, 0);

    // The copy on its own: whole, and every create is there with its idempotency record.
    const copy = new Database(file, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    const txs = copy.prepare("SELECT id, external_identifier, status FROM transactions WHERE external_identifier LIKE 'load-%'").all() as {
      id: string;
      external_identifier: string;
      status: string;
    }[];
    const keys = copy.prepare("SELECT key, response_body FROM idempotency_keys WHERE key LIKE 'load-%' AND state = 'done'").all() as {
      key: string;
      response_body: string;
    }[];
    copy.close();
    expect(txs.length).toBeGreaterThanOrEqual(40);
    expect(txs.length).toBeLessThan(total);
    expect(new Set(keys.map((k) => k.key))).toEqual(new Set(txs.map((t) => t.external_identifier)));
    for (const k of keys) expect(txs.find((t) => t.external_identifier === k.key)!.id).toBe((JSON.parse(k.response_body) as Json).id);

    // Restored: the same records, answered by the API.
    const restored = await start({ restore: file });
    const listed: Json[] = [];
    for (let cursor: string | null = null; ;) {
      const page = await api(restored)('GET', `/transactions?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      listed.push(...(page.body.items as Json[]));
      cursor = page.body.next_cursor as string | null;
      if (!cursor) break;
    }
    expect(new Set(listed.map((t) => t.id))).toEqual(new Set(txs.map((t) => t.id)));
    for (const t of txs) expect(listed.find((l) => l.id === t.id)!.status).toBe(t.status);
  });

  it('keeps every account with its keys, the records, the clock, the deliveries and the idempotency keys', async () => {
    const receiver = await startReceiver();
    try {
      const s = await start();
      const created = (await (
        await fetch(`${s.url}/_sandbox/accounts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ mode: 'direct', name: 'acme' }),
        })
      ).json()) as Json;
      const acme = {
        headers: { authorization: `Bearer ${String(created.api_key)}`, 'x-merchant-account-id': String(created.account_id) },
      } as RunningSandbox['credentials']['direct'];
      const first = await api(s, acme)('POST', '/transactions', directPayment({ notification_url: receiver.url }), {
        'idempotency-key': 'order-1',
      });
      await s.settle(String(first.body.id));
      await s.refund(String(first.body.id), 300);
      await s.waitForDelivery((d) => d.resource_id === first.body.id && d.status === 'delivered');
      await s.advanceClock(3600); // less than the idempotency keys' 24 hours
      const clock = (await (await fetch(`${s.url}/_sandbox/clock`)).json()) as { offset_seconds: number };
      const deliveries = await s.deliveries();
      const credentials = (await (await fetch(`${s.url}/_sandbox/credentials`)).json()) as Json;
      const file = await saveSnapshot(s, 'round-trip.sqlite');
      await s.stop();
      running.splice(running.indexOf(s), 1);

      const r = await start({ restore: file });
      // Accounts and their keys: the same credentials (API keys, JWT key pairs), and the created account's API key works.
      expect(((await (await fetch(`${r.url}/_sandbox/credentials`)).json()) as Json).accounts).toEqual(credentials.accounts);
      // The records.
      const got = await api(r, acme)('GET', `/transactions/${String(first.body.id)}`);
      expect(got.body).toMatchObject({ id: first.body.id, status: 'SUCCEEDED', refunded_amount: 300 });
      // The clock, as it was (it goes on from there with real time).
      const restoredClock = (await (await fetch(`${r.url}/_sandbox/clock`)).json()) as { offset_seconds: number };
      expect(restoredClock.offset_seconds).toBe(clock.offset_seconds);
      // The deliveries, with their attempts.
      const again = await r.deliveries();
      expect(again.map((d) => [d.id, d.status, d.attempts.length])).toEqual(deliveries.map((d) => [d.id, d.status, d.attempts.length]));
      // The idempotency keys: the same key replays the stored answer.
      const replay = await api(r, acme)('POST', '/transactions', directPayment({ notification_url: receiver.url }), {
        'idempotency-key': 'order-1',
      });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.id).toBe(first.body.id);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a file that is not a snapshot with one line, before starting', async () => {
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not a database');
    await expect(startSandbox({ restore: text })).rejects.toThrow(
      /^[^\n]*notes\.txt is not a payment-sandbox snapshot: not an SQLite database file[^\n]*$/,
    );
    const other = join(dir, 'other.sqlite');
    const db = new Database(other);
    db.exec('CREATE TABLE t (x)');
    db.close();
    await expect(startSandbox({ restore: other })).rejects.toThrow(/other\.sqlite is not a payment-sandbox snapshot: no meta, accounts/);
    await expect(startSandbox({ restore: join(dir, 'missing.sqlite') })).rejects.toThrow(/cannot read the snapshot/);
  });

  it('restores into a --db file when one is given (and the file keeps what follows)', async () => {
    const s = await start();
    const paid = await api(s)('POST', '/transactions', directPayment());
    const file = await saveSnapshot(s, 'into-db.sqlite');
    const dbFile = join(dir, 'restored.db');
    const r = await start({ restore: file, db: dbFile });
    const later = await api(r)('POST', '/transactions', directPayment({ external_identifier: 'after-restore' }));
    await r.stop();
    running.splice(running.indexOf(r), 1);
    const reopened = await start({ db: dbFile });
    expect((await api(reopened)('GET', `/transactions/${String(paid.body.id)}`)).status).toBe(200);
    expect((await api(reopened)('GET', `/transactions/${String(later.body.id)}`)).status).toBe(200);
  });
});

describe('startSandbox({ fixtures })', () => {
  it('applies fixture files and documents at start, in order, and exposes each object by name', async () => {
    const file = join(dir, 'orders.json');
    writeFileSync(
      file,
      JSON.stringify({ fixtures: [{ name: 'tx1', account: 'direct', create: 'transaction', body: directPayment(), then: 'settle' }] }),
    );
    const s = await start({
      fixtures: [
        file,
        { fixtures: [{ name: 'r1', account: 'direct', create: 'refund', body: { transaction_id: '${tx1.id}', amount: 50 } }] },
      ],
    });
    expect(s.fixtures.tx1).toMatchObject({ status: 'SUCCEEDED', refunded_amount: 50 });
    expect(s.fixtures.r1).toMatchObject({ type: 'refund', amount: 50 });
    // The same objects over the socket.
    expect((await api(s)('GET', `/transactions/${String((s.fixtures.tx1 as Json).id)}`)).body).toEqual(s.fixtures.tx1);
    // And at run time, with the same loader.
    const more = await s.loadFixtures({ fixtures: [{ name: 'b', account: 'checkout', create: 'buyer', body: { display_name: 'Bo' } }] });
    expect(more.b).toMatchObject({ type: 'buyer', display_name: 'Bo', merchant_account_id: s.credentials.checkout.account_id });
  });

  it('refuses a bad fixtures file at start, naming the file, fixture and pointer', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({ fixtures: [{ name: 'tx1', account: 'direct', create: 'transaction', body: directPayment({ currency: 'usd' }) }] }),
    );
    await expect(startSandbox({ fixtures: [file] })).rejects.toThrow(/bad\.json: fixture "tx1" at \/fixtures\/0\/body\/currency/);
  });

  it('a restored snapshot seeded with the same fixtures is not seeded twice (seed once, snapshot, restore in each job)', async () => {
    const file = join(dir, 'seed.json');
    writeFileSync(
      file,
      JSON.stringify({
        fixtures: [
          {
            name: 'sub',
            account: 'direct',
            create: 'subscription',
            body: {
              external_identifier: 'only-once',
              amount: 900,
              currency: 'USD',
              plan: { name: 'Gold', currency: 'USD', amount: 900, interval: 'month' },
              payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
              browser_info: { javascript_enabled: true, language: 'en-US', color_depth: 24, user_device: 'desktop' },
              customer: { email_address: 'a@example.com', first_name: 'A', last_name: 'B' },
            },
          },
        ],
      }),
    );
    const seeded = await start({ fixtures: [file] });
    const snapshot = await saveSnapshot(seeded, 'seeded.sqlite');
    // The subscription's external_identifier is unique: applying the file again would be refused (409).
    const job = await start({ restore: snapshot, fixtures: [file] });
    expect(job.fixtures).toEqual({});
    const subs = (await api(job)('GET', '/subscriptions')).body.items as Json[];
    expect(subs.map((x) => x.external_identifier)).toEqual(['only-once']);
  });
});
