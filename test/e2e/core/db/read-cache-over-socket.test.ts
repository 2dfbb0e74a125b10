/**
 * The transactions read cache over a real socket: a transaction read (GET and list) before
 * it changes is answered as it is after the change (settle, refund, fail), never as it was;
 * a reset forgets it. The list's JSON, put together from kept JSON texts, is what
 * JSON.stringify would make of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src/server.js';
import { body, directPayment, headers } from '../../../support/app.js';

interface Tx {
  id: string;
  status: string;
  refunded_amount: number;
}

describe('transactions read from the cache over a socket', () => {
  let server: RunningServer;
  let url: string;
  beforeAll(async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', keyPool: 0 });
    url = server.url;
  });
  afterAll(() => server.stop());

  const create = async (): Promise<Tx> =>
    body<Tx>(await fetch(`${url}/v4/transactions`, { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) }));
  const get = async (id: string): Promise<Tx> => body<Tx>(await fetch(`${url}/v4/transactions/${id}`, { headers: headers() }));
  const listed = async (id: string): Promise<Tx | undefined> => {
    const text = await (await fetch(`${url}/v4/transactions?limit=100`, { headers: headers() })).text();
    expect(JSON.stringify(JSON.parse(text))).toBe(text);
    return (JSON.parse(text) as { items: Tx[] }).items.find((t) => t.id === id);
  };
  const control = (path: string, payload?: unknown) =>
    fetch(
      `${url}/_sandbox${path}`,
      payload === undefined
        ? { method: 'POST' }
        : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) },
    );

  it('answers every change at once, in a GET and in a list', async () => {
    const tx = await create();
    expect((await get(tx.id)).status).toBe('PENDING');
    expect((await listed(tx.id))?.status).toBe('PENDING');
    expect((await control(`/transactions/${tx.id}/settle`)).status).toBe(200);
    expect((await get(tx.id)).status).toBe('SUCCEEDED');
    expect((await listed(tx.id))?.status).toBe('SUCCEEDED');
    const refund = await fetch(`${url}/v4/transactions/${tx.id}/refunds`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ amount: 50 }),
    });
    expect(refund.status, await refund.clone().text()).toBe(201);
    expect((await get(tx.id)).refunded_amount).toBe(50);
    expect((await listed(tx.id))?.refunded_amount).toBe(50);

    const other = await create();
    await get(other.id);
    expect((await control(`/transactions/${other.id}/fail`)).status).toBe(200);
    expect((await listed(other.id))?.status).toBe('FAILED');
    expect((await get(other.id)).status).toBe('FAILED');
  });

  it('forgets everything on a reset', async () => {
    const tx = await create();
    await get(tx.id);
    await listed(tx.id);
    expect((await control('/reset')).status).toBeLessThan(300);
    expect((await fetch(`${url}/v4/transactions/${tx.id}`, { headers: headers() })).status).toBe(404);
    expect(await listed(tx.id)).toBeUndefined();
  });
});
