/** The wording of attempt outcomes (outcomes.ts), the scripted faults (faults.ts) and the retry policy (retries.ts), with a fake HTTP client. */
import { describe, expect, it } from 'vitest';
import { faultVerdict, givesUp, releasesParked, signedBody } from '../../../../src/core/webhooks/faults.js';
import { answerError, describePostError, send, MAX_STORED_RESPONSE } from '../../../../src/core/webhooks/outcomes.js';
import { PostAbortedError, type WebhookPoster } from '../../../../src/core/webhooks/post.js';
import { MAX_ATTEMPTS, attemptsDue, retryDelaySeconds } from '../../../../src/core/webhooks/retries.js';
import { ACK, delivery } from './fake-deliveries.js';

const answering = (answer: () => Promise<{ status: number; text: string; whole: boolean }>): WebhookPoster => ({
  post: answer,
  close: () => undefined,
  abort: () => undefined,
});

describe('send (outcomes.ts)', () => {
  it('the acknowledgement is ok; other answers are worded for the merchant', async () => {
    const row = delivery();
    expect(
      await send({ poster: answering(async () => ({ status: 200, text: ACK, whole: true })), timeoutMs: 10_000 }, row, 1, {}),
    ).toMatchObject({ ok: true, status: 200, error: null, contacted: true });
    const big = 'x'.repeat(MAX_STORED_RESPONSE + 10);
    const cut = await send({ poster: answering(async () => ({ status: 500, text: big, whole: true })), timeoutMs: 10_000 }, row, 1, {});
    expect(cut).toMatchObject({ ok: false, error: 'merchant answered HTTP 500' });
    expect(cut.body!.startsWith('x'.repeat(MAX_STORED_RESPONSE) + '\n[cut: ')).toBe(true);
    expect(cut.body!.length).toBeLessThan(MAX_STORED_RESPONSE + 100);
    expect(MAX_STORED_RESPONSE).toBeLessThanOrEqual(4 * 1024);
    expect(answerError(302, true)).toBe('merchant answered HTTP 302 (redirects are not followed)');
    expect(answerError(200, true)).toBe('answer was not {"code":"200","message":"SUCCESS"}');
    expect(answerError(200, false)).toMatch(/^answer larger than \d+ bytes$/);
  });

  it('a simulated failure, a missing URL and a refused target contact nobody', async () => {
    const poster = answering(() => Promise.reject(new Error('must not be called')));
    expect(await send({ poster, timeoutMs: 1000 }, delivery({ simulated_failures: 2, simulated_failure_status: 503 }), 1, {})).toEqual({
      ok: false,
      status: 503,
      body: null,
      error: 'simulated failure 1 of 2 (scenario webhook_failures); the merchant was not contacted',
    });
    expect((await send({ poster, timeoutMs: 1000 }, delivery({ url: null }), 1, {})).error).toMatch(/^no notification URL/);
    const refused = await send({ poster, timeoutMs: 1000, refuseTarget: async () => 'a private address' }, delivery(), 1, {});
    expect(refused.error).toBe('target refused: a private address; the merchant was not contacted');
  });

  it('a time-out, a network error and a cut POST', async () => {
    const timeout = Object.assign(new Error('t'), { name: 'TimeoutError' });
    expect(await send({ poster: answering(() => Promise.reject(timeout)), timeoutMs: 2500 }, delivery(), 1, {})).toMatchObject({
      error: 'no answer within 2.5 s',
      timedOut: true,
    });
    expect(describePostError(Object.assign(new Error('connect refused'), { code: 'ECONNREFUSED' }), 1000)).toBe(
      'ECONNREFUSED: connect refused',
    );
    expect(describePostError('odd', 1000)).toBe('odd');
    expect(
      await send({ poster: answering(() => Promise.reject(new PostAbortedError())), timeoutMs: 1000 }, delivery(), 1, {}),
    ).toMatchObject({ aborted: true });
  });
});

describe('faults and retries', () => {
  it('a bad-signature copy: signed over another body, given up after one attempt, with a verdict on the answer', () => {
    const copy = delivery({ fault: 'bad_signature', body: 'b' });
    expect(signedBody(copy)).toBe('b\n');
    expect(signedBody(delivery({ body: 'b' }))).toBe('b');
    expect(givesUp(copy, 1, false)).toBe(true);
    expect(faultVerdict(copy, { ok: true, status: 200, error: null })).toMatch(/acknowledged a webhook whose signature does not match/);
    expect(faultVerdict(copy, { ok: false, status: 401, error: 'x' })).toBe(
      'scripted bad signature: refused by the merchant (HTTP 401), as it should be; not retried',
    );
    expect(faultVerdict(copy, { ok: false, status: null, error: 'ECONNREFUSED' })).toBe('ECONNREFUSED');
    expect(releasesParked(copy)).toBe(false);
    expect(releasesParked(delivery({ kind: 'refund' }))).toBe(true);
  });

  it('an ordinary delivery is retried 10 s, 20 s, 40 s, ... until MAX_ATTEMPTS; the attempts due in a window are counted', () => {
    const row = delivery();
    expect(givesUp(row, MAX_ATTEMPTS - 1, false)).toBe(false);
    expect(givesUp(row, MAX_ATTEMPTS, false)).toBe(true);
    expect([1, 2, 3].map(retryDelaySeconds)).toEqual([10, 20, 40]);
    expect(retryDelaySeconds(30)).toBe(6 * 3600);
    expect(attemptsDue([{ next_attempt_at: 0, attempts: 0 }], 30_000)).toBe(3); // at 0, 10 s and 30 s
    expect(attemptsDue([{ next_attempt_at: 0, attempts: MAX_ATTEMPTS - 1 }], 10_000_000)).toBe(1);
  });
});
