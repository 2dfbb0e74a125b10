/**
 * Load rehearsal over a real socket: `--rate-limit` answers the calls over each account's
 * budget 429 in the error envelope with `Retry-After`, other accounts untouched; an account's
 * own rate limit and latency set with `PATCH /_sandbox/accounts/{id}`; the go-live report
 * sees a merchant that retried before `Retry-After`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../../src/index.js';

const running: RunningSandbox[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
});

async function start(options: Parameters<typeof startSandbox>[0]): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ ticker: false, ...options });
  running.push(sandbox);
  return sandbox;
}

const list = (sandbox: RunningSandbox, who: 'direct' | 'checkout') =>
  fetch(`${sandbox.apiUrl}/transactions?limit=1`, { headers: sandbox.credentials[who].headers });

async function control(sandbox: RunningSandbox, method: string, path: string, body?: unknown) {
  const res = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('load rehearsal', () => {
  it('--rate-limit: a burst over the budget is answered 429 with Retry-After in the envelope; another account is untouched', async () => {
    const sandbox = await start({ rateLimit: 3 });
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 15 }, () => list(sandbox, 'direct')));
    const elapsedS = (performance.now() - started) / 1000;
    const statuses = answers.map((r) => r.status);
    const served = statuses.filter((s) => s === 200).length;
    // The burst of 3, and at most 3 a second more while the burst was coming in (a shared machine is slow).
    expect(served).toBeGreaterThanOrEqual(3);
    expect(served).toBeLessThanOrEqual(3 + Math.ceil(elapsedS * 3));
    expect(statuses.filter((s) => s === 429)).toHaveLength(15 - served);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('content-type')).toContain('application/json');
    const envelope = (await refused.json()) as Record<string, unknown>;
    expect(envelope.code).toBe('too_many_requests');
    expect(String(envelope.message)).toContain('3 requests per second');
    // The other account has its own budget.
    expect((await list(sandbox, 'checkout')).status).toBe(200);
  });

  it("--rate-limit counts a request only once it authenticates: a flood naming an account without its key spends none of that account's tokens", async () => {
    const sandbox = await start({ rateLimit: 5 });
    const victim = sandbox.credentials.direct.headers;
    const other = sandbox.credentials.checkout.headers;
    // No key, a wrong key, and another account's own key, each naming the victim's account.
    const flood: Record<string, string>[] = [
      { 'x-merchant-account-id': victim['x-merchant-account-id'] },
      { 'x-merchant-account-id': victim['x-merchant-account-id'], authorization: 'Bearer sk_test_not-a-key' },
      { 'x-merchant-account-id': victim['x-merchant-account-id'], authorization: other.authorization },
    ];
    const refused = await Promise.all(
      Array.from({ length: 30 }, (_, i) => fetch(`${sandbox.apiUrl}/transactions?limit=1`, { headers: flood[i % flood.length]! })),
    );
    expect(new Set(refused.map((r) => r.status))).toEqual(new Set([401, 403]));
    // The victim's own burst of 5 is whole.
    const own = await Promise.all(Array.from({ length: 5 }, () => list(sandbox, 'direct')));
    expect(own.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // Its own calls still count: a burst beyond the budget is 429 with Retry-After.
    const more = await Promise.all(Array.from({ length: 10 }, () => list(sandbox, 'direct')));
    const over = more.find((r) => r.status === 429);
    expect(over?.headers.get('retry-after')).toBe('1');
  });

  it('PATCH /_sandbox/accounts/{id} sets an account its own rate limit and latency; "option" goes back to the options', async () => {
    const sandbox = await start({ rateLimit: 0, latency: 0 });
    const id = sandbox.credentials.checkout.account_id;
    const before = await control(sandbox, 'GET', `/accounts/${id}`);
    expect(before.body).toMatchObject({ account_id: id, rate_limit: 0, latency: { p50_ms: 0, p99_ms: 0 }, own: { rate_limit: false } });

    const patched = await control(sandbox, 'PATCH', `/accounts/${id}`, { rate_limit: 2, latency: 'p50=300,p99=300' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ rate_limit: 2, latency: { p50_ms: 300, p99_ms: 300 }, own: { rate_limit: true, latency: true } });

    const started = performance.now();
    const answers = await Promise.all([1, 2, 3].map(() => list(sandbox, 'checkout')));
    // A burst of 2: the third of three calls sent at once is refused (unless a second passed meanwhile).
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(2 + Math.floor((performance.now() - started) / 500));
    expect(statuses).toContain(429);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290); // the 300 ms of this account's calls
    // The direct account keeps the options': no limit, no latency.
    const direct = await Promise.all([1, 2, 3, 4].map(() => list(sandbox, 'direct')));
    expect(direct.map((r) => r.status)).toEqual([200, 200, 200, 200]);

    const distribution = await control(sandbox, 'PATCH', `/accounts/${id}`, { latency: 'p50=20,p99=200' });
    expect(distribution.body.latency).toEqual({ p50_ms: 20, p99_ms: 200 });
    const back = await control(sandbox, 'PATCH', `/accounts/${id}`, { rate_limit: 'option', latency: 'option' });
    expect(back.body).toMatchObject({ rate_limit: 0, latency: { p50_ms: 0, p99_ms: 0 }, own: { rate_limit: false, latency: false } });
    expect((await Promise.all([1, 2, 3].map(() => list(sandbox, 'checkout')))).map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('bad settings are 400 in the envelope, an unknown account 404; nothing changes', async () => {
    const sandbox = await start({});
    const id = sandbox.credentials.direct.account_id;
    for (const body of [
      { rate_limit: -1 },
      { rate_limit: 1.5 },
      { latency: 'p50=9' },
      { latency: 'p50=900,p99=80' },
      { latency: -3 },
      { other: 1 },
    ]) {
      const answer = await control(sandbox, 'PATCH', `/accounts/${id}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('bad_request');
    }
    expect((await control(sandbox, 'PATCH', '/accounts/acc_nobody', { rate_limit: 1 })).status).toBe(404);
    expect((await control(sandbox, 'GET', '/accounts/acc_nobody')).status).toBe(404);
    expect((await control(sandbox, 'GET', `/accounts/${id}`)).body).toMatchObject({ own: { rate_limit: false, latency: false } });
  });

  it("the go-live report's ignored_retry_after sees a retry before the rate limit's Retry-After", async () => {
    const sandbox = await start({ rateLimit: 1 });
    expect((await list(sandbox, 'direct')).status).toBe(200);
    expect((await list(sandbox, 'direct')).status).toBe(429);
    await list(sandbox, 'direct'); // at once, not after Retry-After
    const report = await sandbox.report({ accountId: sandbox.credentials.direct.account_id });
    expect(report.findings.map((f) => f.code)).toContain('ignored_retry_after');
    const careful = await sandbox.report({ accountId: sandbox.credentials.checkout.account_id });
    expect(careful.findings.map((f) => f.code)).not.toContain('ignored_retry_after');
  });
});
