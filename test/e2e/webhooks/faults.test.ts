/**
 * Scripted webhook faults: duplicate, out-of-order (a refund's webhook before its
 * payment's), delayed (on the sandbox clock) and bad-signature deliveries, from a scenario
 * rule and from the control API, each seen by a real merchant receiver on loopback that
 * verifies signatures. Also the in-process check-webhooks control route.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { badHandler, goodHandler } from '../../support/webhook-handlers.js';
import { ACK, directPayment, headers, startReceiver, type Receiver, type ReceivedWebhook } from '../../support/app.js';

type Json = Record<string, unknown>;
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const RULES = [
  { name: 'dup', match: { metadata: { wf: 'duplicate' } }, steps: [{ outcome: 'SUCCEEDED' }, { webhook_fault: 'duplicate' }] },
  {
    name: 'ooo',
    match: { metadata: { wf: 'out_of_order' } },
    steps: [{ outcome: 'SUCCEEDED' }, { refund: { amount: 100 } }, { webhook_fault: 'out_of_order' }],
  },
  { name: 'late', match: { metadata: { wf: 'delayed' } }, steps: [{ outcome: 'SUCCEEDED' }, { webhook_fault: 'delayed', seconds: 600 }] },
  { name: 'badsig', match: { metadata: { wf: 'bad_signature' } }, steps: [{ outcome: 'SUCCEEDED' }, { webhook_fault: 'bad_signature' }] },
];

async function setup(): Promise<{ server: RunningServer; receiver: Receiver }> {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-faults-'));
  const scenario = join(dir, 'faults.json');
  writeFileSync(scenario, JSON.stringify({ name: 'faults', rules: RULES }));
  const receiver = await startReceiver();
  // A production-ready handler refuses a webhook whose signature does not verify.
  receiver.respond = (_n, hook) => (hook.verified ? ACK : { status: 401, body: '{"code":"401","message":"bad signature"}' });
  const server = await startServer({ port: 0, ticker: false, notificationUrl: receiver.url, scenario: [scenario] });
  cleanup.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => receiver.close(),
    () => server.stop(),
  );
  return { server, receiver };
}

const createTx = async (server: RunningServer, metadata: Record<string, string> = {}): Promise<Json> => {
  const res = await fetch(`${server.url}/v4/transactions`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify(directPayment({ metadata })),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Json;
};
const control = async (server: RunningServer, method: string, path: string, payload?: unknown): Promise<{ status: number; body: Json }> => {
  const res = await fetch(`${server.url}/_sandbox${path}`, {
    method,
    headers: payload === undefined ? {} : { 'content-type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Json };
};
const deliveriesOf = async (server: RunningServer, txId: string): Promise<Json[]> =>
  (await control(server, 'GET', `/transactions/${txId}`)).body.deliveries as Json[];
const kindOf = (hook: ReceivedWebhook): 'payment' | 'refund' => ('refund_data' in (hook.body as Json) ? 'refund' : 'payment');

describe('webhook faults from a scenario rule', () => {
  it('duplicate: the same signed webhook arrives twice', async () => {
    const { server, receiver } = await setup();
    await createTx(server, { wf: 'duplicate' });
    const hooks = await receiver.waitFor(2);
    expect(hooks).toHaveLength(2);
    expect(hooks[0]!.raw).toBe(hooks[1]!.raw);
    expect(hooks.every((h) => h.verified)).toBe(true);
  });

  it("out_of_order: the refund's webhook arrives before its payment's", async () => {
    const { server, receiver } = await setup();
    await createTx(server, { wf: 'out_of_order' });
    const hooks = await receiver.waitFor(2);
    expect(hooks.map(kindOf)).toEqual(['refund', 'payment']);
    expect(hooks.every((h) => h.verified)).toBe(true);
  });

  it('delayed: the webhook waits for the sandbox clock, then arrives', async () => {
    const { server, receiver } = await setup();
    const tx = await createTx(server, { wf: 'delayed' });
    const [queued] = await deliveriesOf(server, String(tx.id));
    expect(queued).toMatchObject({ fault: 'delayed', attempts_count: 0, status: 'pending' });
    expect(Date.parse(String(queued!.next_attempt_at)) - Date.parse(String(queued!.created_at))).toBe(600_000);
    expect(receiver.received).toHaveLength(0);
    await control(server, 'POST', '/clock/advance', { seconds: 600 });
    const [hook] = await receiver.waitFor(1);
    expect(hook!.verified).toBe(true);
  });

  it('bad_signature: a copy that does not verify comes first, is refused and not retried; the genuine one is delivered', async () => {
    const { server, receiver } = await setup();
    const tx = await createTx(server, { wf: 'bad_signature' });
    const hooks = await receiver.waitFor(2);
    expect(hooks.map((h) => h.verified).sort()).toEqual([false, true]);
    expect(hooks[0]!.raw).toBe(hooks[1]!.raw);
    await server.features.sandbox.service.advanceClock(3600);
    const deliveries = await deliveriesOf(server, String(tx.id));
    const bad = deliveries.find((d) => d.fault === 'bad_signature')!;
    expect(bad).toMatchObject({ status: 'failed', attempts_count: 1 });
    expect(String((bad.attempts as Json[])[0]!.error)).toMatch(/refused by the merchant/);
    expect(deliveries.find((d) => d.fault === null)).toMatchObject({ status: 'delivered' });
    expect(receiver.received).toHaveLength(2);
  });
});

describe('webhook faults from the control API', () => {
  it('409 while the transaction has no webhook, 400 for delayed without seconds, 404 for an unknown transaction', async () => {
    const { server } = await setup();
    const tx = await createTx(server);
    const pending = await control(server, 'POST', `/transactions/${String(tx.id)}/webhook-faults`, { fault: 'duplicate' });
    expect(pending.status).toBe(409);
    expect(pending.body).toMatchObject({ type: 'error', code: 'invalid_state' });
    const noSeconds = await control(server, 'POST', `/transactions/${String(tx.id)}/webhook-faults`, { fault: 'delayed' });
    expect(noSeconds.status).toBe(400);
    expect((noSeconds.body.details as Json[])[0]).toMatchObject({ pointer: '/seconds' });
    expect((await control(server, 'POST', '/transactions/nope/webhook-faults', { fault: 'duplicate' })).status).toBe(404);
  });

  it('duplicate, bad_signature, delayed and out_of_order on a settled and refunded transaction', async () => {
    const { server, receiver } = await setup();
    const tx = await createTx(server);
    const id = String(tx.id);
    await control(server, 'POST', `/transactions/${id}/settle`);
    await receiver.waitFor(1);

    const dup = await control(server, 'POST', `/transactions/${id}/webhook-faults`, { fault: 'duplicate' });
    expect(dup.status).toBe(201);
    expect((dup.body.deliveries as Json[])[0]).toMatchObject({ fault: 'duplicate', kind: 'payment' });
    const second = (await receiver.waitFor(2))[1]!;
    expect(second.raw).toBe(receiver.received[0]!.raw);
    expect(second.verified).toBe(true);

    expect((await control(server, 'POST', `/transactions/${id}/webhook-faults`, { fault: 'bad_signature' })).status).toBe(201);
    const third = (await receiver.waitFor(3))[2]!;
    expect(third.verified).toBe(false);

    expect((await control(server, 'POST', `/transactions/${id}/webhook-faults`, { fault: 'out_of_order' })).status).toBe(409); // no refund yet
    await control(server, 'POST', `/transactions/${id}/refund`, { amount: 100 });
    await receiver.waitFor(4);
    const ooo = await control(server, 'POST', `/transactions/${id}/webhook-faults`, { fault: 'out_of_order' });
    expect(ooo.status).toBe(201);
    expect((ooo.body.deliveries as Json[]).map((d) => d.kind)).toEqual(['refund', 'payment']);
    const afterOoo = await receiver.waitFor(6);
    expect(afterOoo.slice(4).map(kindOf)).toEqual(['refund', 'payment']);

    const late = await control(server, 'POST', `/transactions/${id}/webhook-faults`, { fault: 'delayed', seconds: 120 });
    expect((late.body.deliveries as Json[])[0]).toMatchObject({ fault: 'delayed', attempts_count: 0 });
    expect(receiver.received).toHaveLength(6);
    await control(server, 'POST', '/clock/advance', { seconds: 120 });
    expect((await receiver.waitFor(7))[6]!.verified).toBe(true);
  });
});

describe('POST /_sandbox/check-webhooks', () => {
  it('runs the battery against a good and a bad handler and answers the report', async () => {
    const { server } = await setup();
    const good = await goodHandler();
    const bad = await badHandler();
    cleanup.push(
      () => good.close(),
      () => bad.close(),
    );
    const passed = await control(server, 'POST', '/check-webhooks', { url: good.url });
    expect(passed.status).toBe(200);
    expect(passed.body).toMatchObject({ url: good.url, passed: true });
    expect((passed.body.checks as Json[]).length).toBeGreaterThan(3);
    const failed = await control(server, 'POST', '/check-webhooks', { url: bad.url });
    expect(failed.body.passed).toBe(false);
    expect((await control(server, 'POST', '/check-webhooks', { url: 'ftp://x' })).status).toBe(400);
  });
});
