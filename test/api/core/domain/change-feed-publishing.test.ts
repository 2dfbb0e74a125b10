/**
 * The change feed hears of work after it commits, in the order things happened, and never of
 * work that rolled back.
 */
import { describe, expect, it } from 'vitest';
import type { SandboxEvent } from '../../../../src/core/domain/events.js';
import { createLogger } from '../../../../src/core/log.js';
import { directSubscription, postSubscription } from '../../../support/subscriptions.js';
import { body, directPayment, headers, testApp } from '../../../support/app.js';

function listen(core: ReturnType<typeof testApp>['core']): { events: SandboxEvent[]; stop: () => void } {
  const events: SandboxEvent[] = [];
  const stop = core.events.subscribe((event) => events.push(event));
  return { events, stop };
}

const MAGIC_SUCCESS = { number: '4242424242424242', expiration_date: '12/30', security_code: '123' };

describe('change feed', () => {
  it('publishes transaction.created before the transaction.updated of an outcome applied at create time', async () => {
    const { app, core } = testApp();
    const { events, stop } = listen(core);
    const payment = directPayment({ payment_method: { type: 'card', ...MAGIC_SUCCESS } });
    const res = await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: JSON.stringify(payment) });
    stop();
    expect(res.status).toBe(201);
    const tx = await body(res);
    expect(tx.status).toBe('SUCCEEDED');
    const about = events.filter((e) => (e.data as { id?: string }).id === tx.id).map((e) => e.type);
    expect(about).toEqual(['transaction.created', 'transaction.updated']);
  });

  it('publishes nothing for work that rolled back', async () => {
    const { app, core, features } = testApp({}, { logger: createLogger({ err: () => undefined }) });
    const { events, stop } = listen(core);
    const decide = features.scenarios.policy.forTransaction;
    features.scenarios.policy.forTransaction = () => {
      throw new Error('fails after the insert, inside the unit of work');
    };
    try {
      const res = await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) });
      expect(res.status).toBe(500);
    } finally {
      features.scenarios.policy.forTransaction = decide;
      stop();
    }
    expect(events.filter((e) => e.type.startsWith('transaction.'))).toEqual([]);
  });

  it('publishes one subscription.updated with the committed status for several changes in one unit of work', async () => {
    const { app, core } = testApp();
    const { events, stop } = listen(core);
    const res = await postSubscription(app, directSubscription());
    stop();
    expect(res.status).toBe(201);
    const sub = await body(res);
    const updates = events.filter((e) => e.type === 'subscription.updated' && (e.data as { id?: string }).id === sub.id);
    expect(updates.map((e) => e.data)).toEqual([{ id: sub.id, status: 'active' }]);
    const order = events.map((e) => e.type);
    expect(order.indexOf('subscription.created')).toBeLessThan(order.indexOf('transaction.created'));
  });
});
