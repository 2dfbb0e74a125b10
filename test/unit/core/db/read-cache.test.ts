/**
 * The transactions repository's read cache (store/read-cache.ts): a read outside a unit of
 * work is kept and answers the next read without SQL, every write of the row forgets it, a
 * write that rolls back leaves nothing behind, a wipe empties it, and it is bounded.
 */
import { describe, expect, it } from 'vitest';
import { SANDBOX_SCHEMA } from '../../../../src/sandbox-schema.js';
import type { Transaction } from '../../../../src/features/transactions/entities.js';
import { openDatabase } from '../../../../src/core/db/database.js';
import { ReadCache } from '../../../../src/core/db/read-cache.js';
import { transactionEntity } from '../../../support/fakes.js';
import { openStore } from '../../../../src/sqlite-store.js';

function payment(id: string, accountId = 'acc_a'): Omit<Transaction, 'seq'> {
  const { seq: _seq, ...tx } = transactionEntity({
    id,
    account_id: accountId,
    link_expires_at: 5_000,
    created_at: 1_000,
    updated_at: 1_000,
  });
  return tx;
}

function setUp() {
  const store = openStore(':memory:', (err) => {
    throw err;
  });
  const { transactions } = store.stores;
  transactions.insert(payment('tx_1'));
  transactions.insert(payment('tx_2', 'acc_b'));
  // The row as SQLite holds it, behind the repository's back (to see what the cache answers).
  const rowStatus = (id: string) =>
    store.db.prepare<[string], { status: string }>('SELECT status FROM transactions WHERE id = ?').get(id)?.status;
  return { store, transactions, rowStatus };
}

describe('the transactions read cache', () => {
  it('answers a repeated read from memory: the same object, with no row read', () => {
    const { transactions, store } = setUp();
    const first = transactions.byIdAnyAccount('tx_1');
    // Change the row without the repository: the cache still answers (this is what it saves).
    store.db.prepare("UPDATE transactions SET description = 'behind its back' WHERE id = 'tx_1'").run();
    const second = transactions.byIdAnyAccount('tx_1');
    expect(second).toBe(first);
    expect(second?.description).toBeNull();
    expect(transactions.page('acc_a', { limit: 20 }).rows[0]).toBe(first);
  });

  it('keeps the account rule: another account does not find a cached transaction', () => {
    const { transactions } = setUp();
    expect(transactions.byId('acc_a', 'tx_1')?.id).toBe('tx_1');
    expect(transactions.byId('acc_b', 'tx_1')).toBeUndefined();
    expect(transactions.byId('acc_b', 'tx_2')?.id).toBe('tx_2');
    expect(transactions.byId('acc_a', 'tx_missing')).toBeUndefined();
  });

  it('forgets a transaction on every write of its row', () => {
    const { transactions } = setUp();
    transactions.byIdAnyAccount('tx_1');
    transactions.setStatus('tx_1', 'SUCCEEDED', 2_000);
    expect(transactions.byIdAnyAccount('tx_1')).toMatchObject({ status: 'SUCCEEDED', updated_at: 2_000, resolved_at: 2_000 });
    transactions.addRefunded('tx_1', 50, 3_000);
    expect(transactions.byIdAnyAccount('tx_1')).toMatchObject({ refunded_amount: 50, updated_at: 3_000 });
    transactions.setScenarioRule('tx_1', 'default/settle');
    expect(transactions.byIdAnyAccount('tx_1')?.scenario_rule).toBe('default/settle');
    transactions.setDeclineReason('tx_1', 'expired_card');
    expect(transactions.byIdAnyAccount('tx_1')?.decline_reason).toBe('expired_card');
    transactions.clearLinkExpiry('tx_1');
    expect(transactions.byIdAnyAccount('tx_1')?.link_expires_at).toBeNull();
    expect(transactions.page('acc_a', { limit: 20 }).rows[0]?.link_expires_at).toBeNull();
  });

  it('never keeps what a unit of work read or wrote: a rolled-back change leaves the committed row', () => {
    const { transactions, store, rowStatus } = setUp();
    transactions.byIdAnyAccount('tx_1'); // cached before the unit of work
    expect(() =>
      store.uow.run(() => {
        transactions.setStatus('tx_1', 'FAILED', 2_000);
        expect(transactions.byIdAnyAccount('tx_1')?.status).toBe('FAILED'); // read inside: not kept
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(rowStatus('tx_1')).toBe('PENDING');
    expect(transactions.byIdAnyAccount('tx_1')?.status).toBe('PENDING');
  });

  it('is emptied by a wipe (reset)', () => {
    const { transactions, store } = setUp();
    transactions.byIdAnyAccount('tx_1');
    store.wipe();
    expect(transactions.byIdAnyAccount('tx_1')).toBeUndefined();
    expect(transactions.page('acc_a', { limit: 20 }).rows).toEqual([]);
  });

  it("hands out frozen entities, so no caller can change the next reader's copy", () => {
    const { transactions } = setUp();
    const tx = transactions.byIdAnyAccount('tx_1')!;
    expect(Object.isFrozen(tx)).toBe(true);
    expect(Object.isFrozen(tx.metadata)).toBe(true);
    expect(() => {
      (tx as { status: string }).status = 'FAILED';
    }).toThrow(TypeError);
  });

  it('is bounded: past its size the oldest entry goes, and nothing is kept inside a transaction', () => {
    const db = openDatabase(':memory:', SANDBOX_SCHEMA);
    const cache = new ReadCache<{ n: number }>(db, 2);
    cache.remember('a', { n: 1 });
    cache.remember('b', { n: 2 });
    cache.remember('c', { n: 3 });
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toEqual({ n: 3 });
    db.transaction(() => cache.remember('d', { n: 4 }))();
    expect(cache.get('d')).toBeUndefined();
  });
});
