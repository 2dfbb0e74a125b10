/**
 * Whether a create's answer reached the client, as the request log notes it: a create whose
 * connection closes before its answer is written is marked undelivered after the fact (one
 * write, only then) and its subscribers hear it; an answer written in full, or a request that is
 * not a create, is never marked. A request with a Node response is heard after its answer, at
 * the end of the event loop's turn or when the app asks (`tellAnswered`, before any other
 * request). The Node response is a fake of the few fields read.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../../src/core/http/ports.js';
import { requestLog, type RequestListener } from '../../../../src/core/http/request-log.js';
import { requestLogApp } from '../../../support/request-log-front.js';

/** The fields of node's ServerResponse the request log reads. */
class FakeOutgoing extends EventEmitter {
  destroyed = false;
  writableFinished = false;
}

function setup() {
  const entries: Omit<RequestLogEntry, 'seq'>[] = [];
  const marked: number[] = [];
  const heard: { logged: number[]; undelivered: number[]; lostWhenHeard: boolean[] } = { logged: [], undelivered: [], lostWhenHeard: [] };
  const listener: RequestListener = {
    logged: (request) => {
      heard.logged.push(request.id);
      heard.lostWhenHeard.push(!request.answerDelivered);
    },
    undelivered: (request) => {
      heard.undelivered.push(request.id);
    },
  };
  const log = requestLog({
    requestLog: {
      insert: (entry) => entries.push(entry),
      insertNow: (entry) => entries.push(entry),
      markUndelivered: (seq) => void marked.push(seq),
    },
    clock: { nowMs: () => 0 },
    emit: () => {},
  });
  log.subscribe(listener);
  const app = requestLogApp(log);
  app.post('/v4/transactions', (c) => c.json({ id: 'tx1' }, 201));
  app.get('/v4/transactions', (c) => c.json({ items: [] }));
  const send = (method: 'GET' | 'POST', outgoing: FakeOutgoing) =>
    app.request('/v4/transactions', { method, body: method === 'POST' ? '{}' : undefined }, { outgoing });
  return { entries, marked, heard, send, log };
}

const turnEnds = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the request log: did the answer reach the client', () => {
  it('marks a create undelivered when its connection closes before the answer is written, once, and tells its observers', async () => {
    const { entries, marked, heard, send, log } = setup();
    const outgoing = new FakeOutgoing();
    await send('POST', outgoing);
    expect(entries.map((e) => e.answer_delivered)).toEqual([true]);
    expect(heard.logged).toEqual([]); // the answer is on its way first
    log.tellAnswered();
    expect(heard).toMatchObject({ logged: [1], lostWhenHeard: [false], undelivered: [] });
    outgoing.destroyed = true;
    outgoing.emit('close');
    outgoing.emit('close');
    expect(marked).toEqual([1]);
    expect(heard.undelivered).toEqual([1]);
  });

  it('writes nothing more for a create whose answer was written in full, or for a request that is not a create', async () => {
    const { entries, marked, heard, send } = setup();
    const written = new FakeOutgoing();
    await send('POST', written);
    written.writableFinished = true;
    written.emit('close');
    const read = new FakeOutgoing();
    await send('GET', read);
    read.emit('close');
    expect(entries.map((e) => e.answer_delivered)).toEqual([true, null]);
    expect(marked).toEqual([]);
    expect(heard.undelivered).toEqual([]);
  });

  it('tells a create whose connection closed before its subscribers heard of it once, as lost', async () => {
    const { entries, marked, heard, send } = setup();
    const outgoing = new FakeOutgoing();
    await send('POST', outgoing);
    outgoing.destroyed = true;
    outgoing.emit('close');
    await turnEnds();
    expect(entries.map((e) => e.answer_delivered)).toEqual([true]);
    expect(marked).toEqual([1]);
    expect(heard).toMatchObject({ logged: [1], lostWhenHeard: [true], undelivered: [] });
  });

  it('tells the subscribers of an answered request by the end of the event loop turn, unasked', async () => {
    const { heard, send } = setup();
    await send('POST', new FakeOutgoing());
    await send('GET', new FakeOutgoing());
    expect(heard.logged).toEqual([]);
    await turnEnds();
    expect(heard.logged).toEqual([1, 2]);
  });

  it('logs a create as undelivered at once when the client is already gone', async () => {
    const { entries, marked, heard, send } = setup();
    const gone = new FakeOutgoing();
    gone.destroyed = true;
    await send('POST', gone);
    await turnEnds();
    expect(entries.map((e) => e.answer_delivered)).toEqual([false]);
    expect(heard.lostWhenHeard).toEqual([true]);
    expect(marked).toEqual([]); // no second write: the entry said so when written
  });
});
