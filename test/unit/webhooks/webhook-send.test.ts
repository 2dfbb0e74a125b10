/**
 * The webhook sender's choice of queue: a hand-sent body joins the queue of the transaction it
 * names only when its account owns that transaction and the URL is the transaction's own;
 * another account's transaction is refused at `/body/ll_transaction_id`.
 */
import { describe, expect, it } from 'vitest';
import type { Delivery } from '../../../src/core/domain/entities.js';
import { SandboxError } from '../../../src/core/domain/errors.js';
import { createWebhookSender, type QueuedWebhookFields } from '../../../src/features/webhooks/webhook-send.js';

const OWN_URL = 'http://shop.example/webhooks';

function sender() {
  const queued: { fields: QueuedWebhookFields; joinQueue: boolean }[] = [];
  const send = createWebhookSender({
    accounts: { byId: (id) => (id === 'A' || id === 'B' ? { id } : undefined) },
    defaultUrl: OWN_URL,
    targetRefused: () => null,
    queue: (fields, joinQueue) => {
      queued.push({ fields, joinQueue });
      return { id: 'd1' } as Delivery;
    },
    webhookSubject: (id) => (id === 'tx-a' || id === 'refund-a' ? { accountId: 'A', url: OWN_URL } : undefined),
  });
  return { send: send.send, queued };
}

describe('which queue a hand-sent webhook joins', () => {
  it("joins the transaction's queue for its own account and the transaction's own URL", () => {
    const { send, queued } = sender();
    send({ accountId: 'A', body: { ll_transaction_id: 'tx-a' } });
    send({ accountId: 'A', url: OWN_URL, body: { ll_transaction_id: 'refund-a', refund_data: {} } });
    expect(queued.map((q) => [q.fields.resource_id, q.fields.kind, q.joinQueue])).toEqual([
      ['tx-a', 'payment', true],
      ['refund-a', 'refund', true],
    ]);
  });

  it('has a queue of its own for another URL, an unknown id, or no id', () => {
    const { send, queued } = sender();
    send({ accountId: 'A', url: 'http://dead.example/', body: { ll_transaction_id: 'tx-a' } });
    send({ accountId: 'A', body: { ll_transaction_id: 'tx-unknown' } });
    send({ accountId: 'A', body: 'not json' });
    expect(queued.map((q) => q.joinQueue)).toEqual([false, false, false]);
  });

  it("refuses another account's transaction with 400 at /body/ll_transaction_id, queueing nothing", () => {
    const { send, queued } = sender();
    let caught: unknown;
    try {
      send({ accountId: 'B', url: 'http://dead.example/', body: { ll_transaction_id: 'refund-a', refund_data: {} } });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(SandboxError);
    expect((caught as SandboxError).status).toBe(400);
    expect((caught as SandboxError).details).toEqual([expect.objectContaining({ pointer: '/body/ll_transaction_id', location: 'body' })]);
    expect(queued).toEqual([]);
  });
});
