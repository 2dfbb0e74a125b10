/** The line `listen` prints per forwarded delivery (a delivered one: api/forwarder). */
import { describe, expect, it } from 'vitest';
import { forwardedLine } from '../../../src/features/forwarder/listen-command.js';

describe("listen's forwarded line", () => {
  it('says the error when there was no answer, and the attempt number after the first', () => {
    const line = forwardedLine({
      at: new Date('2026-11-29T07:00:00.000Z'),
      kind: 'refund',
      event: null,
      resourceId: 'rf_1',
      status: null,
      error: 'connection refused',
      durationMs: 12.6,
      number: 3,
      deliveryId: 'dlv_1',
    });
    expect(line).toBe('2026-11-29T07:00:00.000Z  refund  rf_1  -> error: connection refused  13 ms attempt 3  [dlv_1]');
  });

  it('a status with an error shows both', () => {
    const line = forwardedLine({
      at: new Date(0),
      kind: 'payment',
      event: 'FAILED',
      resourceId: 'tx_1',
      status: 500,
      error: 'not acknowledged',
      durationMs: 1,
      number: 1,
      deliveryId: 'dlv_2',
    });
    expect(line).toBe('1970-01-01T00:00:00.000Z  payment/FAILED  tx_1  -> 500 (not acknowledged)  1 ms  [dlv_2]');
  });
});
