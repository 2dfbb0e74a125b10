/**
 * A keyed create's rows commit in one SQLite transaction, over a real socket: the transaction,
 * its idempotency record and its request-log entry are all in the database when the answer
 * arrives (the entry is not waiting in the log's batch), and when the entry cannot be written
 * none of the three is kept: the create answers the 500 envelope and a retry with the same key
 * runs it afresh.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/log.js';
import { startServer, type RunningServer } from '../../../src/server.js';
import { directPayment, headers } from '../../support/app.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function started(): Promise<RunningServer> {
  const logger = createLogger({ format: 'json', out: () => undefined, err: () => undefined });
  const server = await startServer({ port: 0 }, { logger });
  cleanup.push(() => server.stop());
  return server;
}

const create = (server: RunningServer, key: string, ext: string): Promise<Response> =>
  fetch(`${server.url}/v4/transactions`, {
    method: 'POST',
    headers: headers(undefined, { 'idempotency-key': key }),
    body: JSON.stringify(directPayment({ external_identifier: ext })),
  });

/** What the database holds of one create, read straight from it (no read of the log, which would write its batch first). */
function rows(server: RunningServer, key: string, ext: string): { transactions: number; keys: number; logged: number } {
  const count = (sql: string, value: string): number => (server.db.prepare(sql).get(value) as { n: number }).n;
  return {
    transactions: count('SELECT count(*) AS n FROM transactions WHERE external_identifier = ?', ext),
    keys: count('SELECT count(*) AS n FROM idempotency_keys WHERE key = ?', key),
    logged: count('SELECT count(*) AS n FROM request_log WHERE idempotency_key = ? AND status = 201', key),
  };
}

describe('a keyed create writes its rows in one SQLite transaction', () => {
  it('has its transaction, its key and its request-log entry in the database when the answer arrives', async () => {
    const server = await started();
    for (let i = 0; i < 5; i++) {
      const res = await create(server, `one-tx-${i}`, `one-tx-order-${i}`);
      expect(res.status).toBe(201);
      await res.arrayBuffer();
      expect(rows(server, `one-tx-${i}`, `one-tx-order-${i}`)).toEqual({ transactions: 1, keys: 1, logged: 1 });
    }
    // The log as read over the API holds each entry once.
    const log = (await (await fetch(`${server.url}/_sandbox/requests?limit=100`)).json()) as {
      items: { idempotency_key: string | null }[];
    };
    const keys = log.items.map((e) => e.idempotency_key).filter((k) => k?.startsWith('one-tx-'));
    expect(keys.sort()).toEqual(['one-tx-0', 'one-tx-1', 'one-tx-2', 'one-tx-3', 'one-tx-4']);
  });

  it('keeps none of the three when the request-log entry cannot be written, and a retry runs afresh', async () => {
    const server = await started();
    server.db.exec(
      "CREATE TEMP TRIGGER refuse_log BEFORE INSERT ON request_log WHEN NEW.idempotency_key = 'doomed' BEGIN SELECT RAISE(ABORT, 'no room for the entry'); END",
    );
    const refused = await create(server, 'doomed', 'doomed-order');
    expect(refused.status).toBe(500);
    const envelope = (await refused.json()) as { type: string; status: number };
    expect(envelope).toMatchObject({ type: 'error', status: 500 });
    expect(rows(server, 'doomed', 'doomed-order')).toEqual({ transactions: 0, keys: 0, logged: 0 });

    server.db.exec('DROP TRIGGER refuse_log');
    const retried = await create(server, 'doomed', 'doomed-order');
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    await retried.arrayBuffer();
    expect(rows(server, 'doomed', 'doomed-order')).toEqual({ transactions: 1, keys: 1, logged: 1 });
  });
});
