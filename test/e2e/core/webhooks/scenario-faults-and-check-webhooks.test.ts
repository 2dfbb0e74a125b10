/**
 * Scripted webhook faults on the wire: a bad-signature copy from a scenario rule, refused by a
 * real merchant receiver on loopback that verifies signatures, and the check-webhooks control
 * route against real handlers. The other faults (duplicate, out-of-order, delayed, and each
 * from the control API) run through the app in api/transactions/webhook-faults.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src/server.js';
import { badHandler, goodHandler } from '../../../support/webhook-handlers.js';
import { ACK, directPayment, headers, startReceiver, type Receiver } from '../../../support/app.js';

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

describe('webhook faults from a scenario rule', () => {
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
