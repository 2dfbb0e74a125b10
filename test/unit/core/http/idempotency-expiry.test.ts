/**
 * An idempotency key expires on its own account's clock: a sweep on one account's clock (a
 * month ahead) deletes that account's expired keys and no other account's, and a sweep on the
 * sandbox clock compares each key on its account's clock.
 */
import { describe, expect, it } from 'vitest';
import { SANDBOX_SCHEMA } from '../../../../src/sandbox-schema.js';
import { openDatabase } from '../../../../src/core/db/database.js';
import { idempotencyStore } from '../../../../src/core/http/idempotency-store.js';
import { IDEMPOTENCY_TTL_MS } from '../../../../src/core/http/idempotency.js';
import { createAccountClocks } from '../../../../src/core/clock/account-clocks.js';

const NOW = Date.UTC(2026, 10, 27, 12);
const MONTH = 30 * 86_400_000;

function setup() {
  const clocks = createAccountClocks();
  const store = idempotencyStore(openDatabase(':memory:', SANDBOX_SCHEMA), clocks);
  // Each key stamped on its own account's clock: acc_a a month ahead, acc_b on the sandbox clock.
  clocks.setOffset('acc_a', MONTH);
  store.record('acc_a', 'key-a', 'f', NOW + MONTH, 201, '{}');
  store.record('acc_b', 'key-b', 'f', NOW, 201, '{}');
  return { clocks, store };
}

describe('idempotency key expiry per account', () => {
  it("a sweep on one account's clock a day later deletes its own expired key and leaves another account's", () => {
    const { clocks, store } = setup();
    clocks.setOffset('acc_a', MONTH + IDEMPOTENCY_TTL_MS + 1000);
    const deleted = clocks.run('acc_a', () => store.deleteExpired(NOW + MONTH + 1000, 100));
    expect(deleted).toBe(1);
    expect(store.get('acc_a', 'key-a')).toBeUndefined();
    expect(store.get('acc_b', 'key-b')).toBeDefined();
  });

  it("a sweep on an account's clock a month ahead leaves a fresh key of an account on the sandbox clock", () => {
    const { clocks, store } = setup();
    // acc_a's now is a month ahead: its cut-off is weeks after acc_b's key was made.
    clocks.run('acc_a', () => store.deleteExpired(NOW + MONTH - IDEMPOTENCY_TTL_MS + 1000, 100));
    expect(store.get('acc_b', 'key-b')).toBeDefined();
    expect(store.get('acc_a', 'key-a')).toBeDefined();
  });

  it('a sweep on the sandbox clock compares each key on its own account clock', () => {
    const { store } = setup();
    // A day later on the sandbox clock: acc_b's key expired; acc_a's, made at its own time a day later too, as well.
    expect(store.deleteExpired(NOW + 1000, 100)).toBe(2);
    const again = setup();
    // Half a day later: neither.
    expect(again.store.deleteExpired(NOW - IDEMPOTENCY_TTL_MS / 2, 100)).toBe(0);
    expect(again.store.get('acc_a', 'key-a')).toBeDefined();
  });
});
