/**
 *, "crash through the event stream", in process: a `/_sandbox/events` client that
 * does not read is no longer queued for without limit; once it is more than 1 MiB behind it
 * gets one final `dropped` event and its stream ends. Failed on main (the stream never ended
 * and its queue grew with every event).
 */
import { describe, expect, it } from 'vitest';
import { MAX_BUFFERED_BYTES } from '../../../src/features/sandbox/event-stream.js';
import { testApp } from '../../support/app.js';

/** Reads a body to its end, or gives up after `ms` (a stream that never ends). */
async function readAll(res: Response, ms: number): Promise<{ text: string; ended: boolean }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + ms;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) {
      await reader.cancel();
      return { text, ended: false };
    }
    let timer: NodeJS.Timeout | undefined;
    const next = await Promise.race([reader.read(), new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), left)))]);
    clearTimeout(timer);
    if (next === 'late') {
      await reader.cancel();
      return { text, ended: false };
    }
    if (next.done) return { text, ended: true };
    text += decoder.decode(next.value, { stream: true });
  }
}

describe('a slow event-stream client', () => {
  it('is dropped with a final "dropped" event once it is more than 1 MiB behind; a new stream still opens', async () => {
    const { app, core } = testApp({ maxEventStreams: 2 });
    const stalled = await app.request('/_sandbox/events');
    expect(stalled.status).toBe(200);
    expect(stalled.headers.get('content-type')).toContain('text/event-stream');
    // 15 KB paths, unauthenticated: each 401 is a `request.logged` event of ~15 KB.
    const long = 'x'.repeat(15_000);
    for (let i = 0; i < 120; i++) {
      const res = await app.request(`/v4/transactions/${long}${i}`);
      expect(res.status).toBe(401);
    }
    const { text, ended } = await readAll(stalled, 3000);
    expect(ended, 'the stalled stream was closed').toBe(true);
    const events = text.split('\n\n').filter(Boolean);
    expect(events[0]).toMatch(/^event: ready\n/);
    const last = events[events.length - 1]!;
    expect(last).toMatch(/^event: dropped\ndata: /);
    expect(JSON.parse(last.slice(last.indexOf('data: ') + 6))).toMatchObject({ reason: 'slow_client' });
    // Bounded: what it was sent before the drop is at most the limit (plus the ready and dropped events).
    expect(Buffer.byteLength(text)).toBeLessThan(MAX_BUFFERED_BYTES + 4096);
    expect(events.filter((e) => e.startsWith('event: change')).length).toBeLessThan(120);

    // The dropped stream no longer counts against --max-event-streams, and no longer listens.
    const a = await app.request('/_sandbox/events');
    const b = await app.request('/_sandbox/events');
    expect([a.status, b.status]).toEqual([200, 200]);
    await a.body!.cancel();
    await b.body!.cancel();
    await new Promise((r) => setTimeout(r, 10));
    expect(core.events.listened).toBe(false);
  });

  it('a client that reads gets every event, each serialized as before', async () => {
    const { app } = testApp();
    const res = await app.request('/_sandbox/events');
    const reading = readAll(res, 1500);
    for (let i = 0; i < 5; i++) expect((await app.request(`/v4/transactions/t${i}`)).status).toBe(401);
    const { text } = await reading;
    const changes = text.split('\n\n').filter((e) => e.startsWith('event: change\ndata: '));
    expect(changes).toHaveLength(5);
    const first = JSON.parse(changes[0]!.slice('event: change\ndata: '.length)) as Record<string, unknown>;
    expect(first).toMatchObject({ type: 'request.logged', data: { status: 401, path: '/v4/transactions/t0' } });
    expect(typeof first.id).toBe('number');
  });
});
