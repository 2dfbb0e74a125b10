/**
 * A full pass over due deliveries reads, of a subscription's queue, its head alone: the
 * deliveries behind it wait, so a year of renewals queued at once is not read row by row.
 */
import { describe, expect, it } from 'vitest';
import { SANDBOX_SCHEMA } from '../../../../src/sandbox-schema.js';
import { openDatabase } from '../../../../src/core/db/database.js';
import type { Delivery } from '../../../../src/core/domain/entities.js';
import { deliveriesStore } from '../../../../src/core/webhooks/deliveries-store.js';

const row = (id: string, extra: Partial<Delivery> = {}): Omit<Delivery, 'seq'> => ({
  id,
  account_id: 'acc_1',
  kind: 'payment',
  resource_id: `tx_${id}`,
  url: 'http://127.0.0.1:1/hook',
  body: '{}',
  signature: null,
  status: 'pending',
  attempts: 0,
  simulated_failures: 0,
  simulated_failure_status: 503,
  fault: null,
  order_key: null,
  next_attempt_at: 1_000,
  created_at: 1_000,
  updated_at: 1_000,
  delivered_at: null,
  ...extra,
});

describe('due heads of delivery queues', () => {
  it('lists every due delivery without a queue, and of each queue only its earliest pending one', () => {
    const deliveries = deliveriesStore(openDatabase(':memory:', SANDBOX_SCHEMA));
    const queue = 'subscription:sub_1 http://127.0.0.1:1/hook';
    for (const id of ['q1', 'q2', 'q3']) deliveries.insert({ ...row(id), order_key: queue } as Delivery);
    deliveries.insert({ ...row('other'), order_key: 'subscription:sub_2 http://127.0.0.1:1/hook' } as Delivery);
    deliveries.insert(row('alone', { next_attempt_at: 500 }) as Delivery);
    deliveries.insert(row('later', { next_attempt_at: 5_000 }) as Delivery);
    expect(deliveries.dueHeadIds(1_000)).toEqual(['alone', 'q1', 'other']);
    expect(deliveries.headInOrder(queue)?.id).toBe('q1');

    deliveries.recordAttempt(
      {
        delivery_id: 'q1',
        number: 1,
        at: 1_000,
        url: null,
        request_headers: {},
        response_status: 200,
        response_body: '',
        error: null,
        duration_ms: 1,
        ok: true,
      },
      { status: 'delivered', attempts: 1, next_attempt_at: null, delivered_at: 1_000, updated_at: 1_000 },
    );
    expect(deliveries.dueHeadIds(1_000)).toEqual(['alone', 'q2', 'other']);
    expect(deliveries.headInOrder(queue)?.id).toBe('q2');
  });

  it('a bad-signature copy and a parked delivery are not a queue head; the copy is due on its own', () => {
    const deliveries = deliveriesStore(openDatabase(':memory:', SANDBOX_SCHEMA));
    const queue = 'subscription:sub_1 http://127.0.0.1:1/hook';
    deliveries.insert({ ...row('parked', { next_attempt_at: null }), order_key: queue } as Delivery);
    deliveries.insert({ ...row('copy', { fault: 'bad_signature' }), order_key: queue } as Delivery);
    deliveries.insert({ ...row('head'), order_key: queue } as Delivery);
    deliveries.insert({ ...row('next'), order_key: queue } as Delivery);
    expect(deliveries.dueHeadIds(1_000)).toEqual(['copy', 'head']);
    expect(deliveries.headInOrder(queue)?.id).toBe('head');
  });
});
