/**
 * Scripted webhook faults through the app, at a verifying in-memory receiver that refuses a
 * bad signature as a production-ready handler does: duplicate, out-of-order (a refund's webhook
 * before its payment's) and delayed (on the sandbox clock) deliveries from a scenario rule, and
 * every fault from the control API. A bad-signature copy refused by a real receiver on a
 * socket, and the check-webhooks control route, are in e2e/webhooks/faults.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACK, directPayment, headers, testApp, type ReceivedWebhook } from '../../support/app.js';
import { memoryWebhooks } from '../../support/memory-receiver.js';

type Json = Record<string, unknown>;
type App = ReturnType<typeof testApp>['app'];

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

const dir = mkdtempSync(join(tmpdir(), 'webhook-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const scenario = join(dir, 'faults.json');
writeFileSync(scenario, JSON.stringify({ name: 'faults', rules: RULES }));

function setup() {
  const net = memoryWebhooks();
  const receiver = net.receiver();
  // A production-ready handler refuses a webhook whose signature does not verify.
  receiver.respond = (_n, hook) => (hook.verified ? ACK : { status: 401, body: '{"code":"401","message":"bad signature"}' });
  const { app } = testApp({ notificationUrl: receiver.url, scenario: [scenario] }, { webhookPoster: net.poster });
  return { app, receiver };
}

const createTx = async (app: App, metadata: Record<string, string> = {}): Promise<Json> => {
  const res = await app.request('/v4/transactions', {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify(directPayment({ metadata })),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Json;
};
const control = async (app: App, method: string, path: string, payload?: unknown): Promise<{ status: number; body: Json }> => {
  const res = await app.request(`/_sandbox${path}`, {
    method,
    headers: payload === undefined ? {} : { 'content-type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Json };
};
const deliveriesOf = async (app: App, txId: string): Promise<Json[]> =>
  (await control(app, 'GET', `/transactions/${txId}`)).body.deliveries as Json[];
const kindOf = (hook: ReceivedWebhook): 'payment' | 'refund' => ('refund_data' in (hook.body as Json) ? 'refund' : 'payment');

describe('webhook faults from a scenario rule', () => {
  it('duplicate: the same signed webhook arrives twice', async () => {
    const { app, receiver } = setup();
    await createTx(app, { wf: 'duplicate' });
    const hooks = await receiver.waitFor(2);
    expect(hooks).toHaveLength(2);
    expect(hooks[0]!.raw).toBe(hooks[1]!.raw);
    expect(hooks.every((h) => h.verified)).toBe(true);
  });

  it("out_of_order: the refund's webhook arrives before its payment's", async () => {
    const { app, receiver } = setup();
    await createTx(app, { wf: 'out_of_order' });
    const hooks = await receiver.waitFor(2);
    expect(hooks.map(kindOf)).toEqual(['refund', 'payment']);
    expect(hooks.every((h) => h.verified)).toBe(true);
  });

  it('delayed: the webhook waits for the sandbox clock, then arrives', async () => {
    const { app, receiver } = setup();
    const tx = await createTx(app, { wf: 'delayed' });
    const [queued] = await deliveriesOf(app, String(tx.id));
    expect(queued).toMatchObject({ fault: 'delayed', attempts_count: 0, status: 'pending' });
    expect(Date.parse(String(queued!.next_attempt_at)) - Date.parse(String(queued!.created_at))).toBe(600_000);
    expect(receiver.received).toHaveLength(0);
    await control(app, 'POST', '/clock/advance', { seconds: 600 });
    const [hook] = await receiver.waitFor(1);
    expect(hook!.verified).toBe(true);
  });
});

describe('webhook faults from the control API', () => {
  it('409 while the transaction has no webhook, 400 for delayed without seconds, 404 for an unknown transaction', async () => {
    const { app } = setup();
    const tx = await createTx(app);
    const pending = await control(app, 'POST', `/transactions/${String(tx.id)}/webhook-faults`, { fault: 'duplicate' });
    expect(pending.status).toBe(409);
    expect(pending.body).toMatchObject({ type: 'error', code: 'invalid_state' });
    const noSeconds = await control(app, 'POST', `/transactions/${String(tx.id)}/webhook-faults`, { fault: 'delayed' });
    expect(noSeconds.status).toBe(400);
    expect((noSeconds.body.details as Json[])[0]).toMatchObject({ pointer: '/seconds' });
    expect((await control(app, 'POST', '/transactions/nope/webhook-faults', { fault: 'duplicate' })).status).toBe(404);
  });

  it('duplicate, bad_signature, delayed and out_of_order on a settled and refunded transaction', async () => {
    const { app, receiver } = setup();
    const tx = await createTx(app);
    const id = String(tx.id);
    await control(app, 'POST', `/transactions/${id}/settle`);
    await receiver.waitFor(1);

    const dup = await control(app, 'POST', `/transactions/${id}/webhook-faults`, { fault: 'duplicate' });
    expect(dup.status).toBe(201);
    expect((dup.body.deliveries as Json[])[0]).toMatchObject({ fault: 'duplicate', kind: 'payment' });
    const second = (await receiver.waitFor(2))[1]!;
    expect(second.raw).toBe(receiver.received[0]!.raw);
    expect(second.verified).toBe(true);

    expect((await control(app, 'POST', `/transactions/${id}/webhook-faults`, { fault: 'bad_signature' })).status).toBe(201);
    const third = (await receiver.waitFor(3))[2]!;
    expect(third.verified).toBe(false);

    expect((await control(app, 'POST', `/transactions/${id}/webhook-faults`, { fault: 'out_of_order' })).status).toBe(409); // no refund yet
    await control(app, 'POST', `/transactions/${id}/refund`, { amount: 100 });
    await receiver.waitFor(4);
    const ooo = await control(app, 'POST', `/transactions/${id}/webhook-faults`, { fault: 'out_of_order' });
    expect(ooo.status).toBe(201);
    expect((ooo.body.deliveries as Json[]).map((d) => d.kind)).toEqual(['refund', 'payment']);
    const afterOoo = await receiver.waitFor(6);
    expect(afterOoo.slice(4).map(kindOf)).toEqual(['refund', 'payment']);

    const late = await control(app, 'POST', `/transactions/${id}/webhook-faults`, { fault: 'delayed', seconds: 120 });
    expect((late.body.deliveries as Json[])[0]).toMatchObject({ fault: 'delayed', attempts_count: 0 });
    expect(receiver.received).toHaveLength(6);
    await control(app, 'POST', '/clock/advance', { seconds: 120 });
    expect((await receiver.waitFor(7))[6]!.verified).toBe(true);
  });
});
