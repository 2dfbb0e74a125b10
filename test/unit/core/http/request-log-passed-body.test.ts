/**
 * The request log reads the body's scan the body pass made (`wire/body-pass.ts`, set by
 * validation as `loggedBody`) instead of scanning the body again: the logged text and the
 * card-data finding its subscribers hear are the pass's, as long as the body is the value the
 * pass made them from; any other body is scanned by the log itself.
 */
import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../../src/core/http/ports.js';
import { requestLog } from '../../../../src/core/http/request-log.js';
import { requestLogApp } from '../../../support/request-log-front.js';

function setup(passedBodyOf: (body: unknown) => unknown) {
  const entries: Omit<RequestLogEntry, 'seq'>[] = [];
  const cardData: boolean[] = [];
  const log = requestLog({
    requestLog: { insert: (entry) => entries.push(entry), insertNow: (entry) => entries.push(entry), markUndelivered: () => {} },
    clock: { nowMs: () => 0 },
    emit: () => {},
  });
  log.subscribe({ logged: (request) => void cardData.push(request.cardData()) });
  const app = requestLogApp(log);
  app.post('/v4/transactions', (c) => {
    const body = { amount: 1, description: 'no card here' };
    c.set('body', body);
    // What the pass would have said of the body it passed (a text no scan of `body` writes).
    c.set('loggedBody', { body: passedBodyOf(body), json: '{"scanned":"by the pass"}', cardData: true });
    return c.json({ id: 'tx1' }, 201);
  });
  const send = () => app.request('/v4/transactions', { method: 'POST', body: '{}' });
  return { entries, cardData, send };
}

describe("the request log and the body pass's scan", () => {
  it('logs the text and the card-data finding the pass made of the same body, without a scan of its own', async () => {
    const { entries, cardData, send } = setup((body) => body);
    expect((await send()).status).toBe(201);
    expect(entries.map((e) => e.request_body)).toEqual(['{"scanned":"by the pass"}']);
    expect(cardData).toEqual([true]);
  });

  it('scans a body the pass did not make its scan of', async () => {
    const { entries, cardData, send } = setup(() => ({ another: 'body' }));
    expect((await send()).status).toBe(201);
    expect(entries.map((e) => e.request_body)).toEqual(['{"amount":1,"description":"no card here"}']);
    expect(cardData).toEqual([false]);
  });
});
