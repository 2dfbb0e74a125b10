/**
 * The request log's `answer_delivered`, through the app without a socket: a create whose
 * answer a fault after execution hid is logged false, a create answered as usual true, and a
 * request that is not a create null; the go-live report reads the same, so a create after a
 * hidden answer under another key is a duplicate charge. Requests served over a socket (a Node
 * response under the app, faked) are heard by the report after their answers, yet before any
 * later request.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { DIRECT, directPayment, headers, testApp } from '../../support/app.js';

interface LoggedEntry {
  id: number;
  method: string;
  path: string;
  status: number;
  idempotency_key: string | null;
  answer_delivered: boolean | null;
}

describe('answer_delivered in the request log', () => {
  it('is false for a create a fault after execution hid, true for one answered, null for a read', async () => {
    const { app } = testApp();
    const order = directPayment();
    delete order.external_identifier;
    const send = (key: string, fault?: string) =>
      app.request('/v4/transactions', {
        method: 'POST',
        headers: headers(DIRECT, { 'idempotency-key': key, ...(fault ? { 'x-sandbox-fault': fault } : {}) }),
        body: JSON.stringify(order),
      });
    expect((await send('first', '503-after')).status).toBe(503);
    expect((await send('second')).status).toBe(201);
    expect((await app.request('/v4/transactions?limit=1', { headers: headers(DIRECT) })).status).toBe(200);

    const log = (await (await app.request(`/_sandbox/requests?account_id=${DIRECT.account_id}&limit=10`)).json()) as {
      items: LoggedEntry[];
    };
    expect(log.items.map((e) => [e.method, e.status, e.idempotency_key, e.answer_delivered])).toEqual([
      ['GET', 200, null, null],
      ['POST', 201, 'second', true],
      ['POST', 503, 'first', false],
    ]);
    const report = (await (await app.request(`/_sandbox/report?account_id=${DIRECT.account_id}`)).json()) as {
      findings: { code: string; evidence: { count: number; request_ids: number[] } }[];
    };
    const duplicate = report.findings.find((f) => f.code === 'duplicate_charge_risk');
    expect(duplicate?.evidence).toMatchObject({ count: 1, request_ids: [log.items[2]!.id, log.items[1]!.id] });
  });

  it('is known to a report asked right after answers over a socket, before the event loop turn ends', async () => {
    const { app } = testApp();
    const order = directPayment();
    delete order.external_identifier;
    /** The fields of node's ServerResponse the request log reads: an answer on its way. */
    const outgoing = () => Object.assign(new EventEmitter(), { destroyed: false, writableFinished: false });
    const send = (key: string, fault?: string) =>
      app.request(
        '/v4/transactions',
        {
          method: 'POST',
          headers: headers(DIRECT, { 'idempotency-key': key, ...(fault ? { 'x-sandbox-fault': fault } : {}) }),
          body: JSON.stringify(order),
        },
        { outgoing: outgoing() },
      );
    expect((await send('first', '503-after')).status).toBe(503);
    expect((await send('second')).status).toBe(201);
    // No turn of the event loop in between: the report's request hears them first.
    const report = (await (await app.request(`/_sandbox/report?account_id=${DIRECT.account_id}`)).json()) as {
      findings: { code: string; evidence: { count: number } }[];
    };
    expect(report.findings.find((f) => f.code === 'duplicate_charge_risk')?.evidence).toMatchObject({ count: 1 });
  });
});
