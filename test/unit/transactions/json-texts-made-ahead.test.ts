/**
 * JSON texts made ahead: a transaction's view kept per frozen entity object, and a page put
 * together from such texts, are exactly what JSON.stringify makes of the view and the page.
 */
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../../../src/features/transactions/entities.js';
import { transactionView, transactionViewJson } from '../../../src/features/transactions/transaction-format.js';
import { pageEnvelope, pageEnvelopeJson } from '../../../src/core/http/pagination.js';
import { transactionEntity } from '../../support/fakes.js';

const tx = (id: string, seq: number, status: Transaction['status'] = 'PENDING'): Transaction =>
  transactionEntity({ id, seq, status, description: 'with "quotes" and \u2028 a separator' });

describe('JSON texts made ahead', () => {
  it('a transaction view: the same text; kept for a frozen entity, made again for a changed one', () => {
    const frozen = Object.freeze(tx('tx_1', 1));
    expect(transactionViewJson(frozen, 'http://127.0.0.1:3000', 'direct')).toBe(
      JSON.stringify(transactionView(frozen, 'http://127.0.0.1:3000', 'direct')),
    );
    expect(transactionViewJson(frozen, 'http://127.0.0.1:3000', 'direct')).toBe(
      transactionViewJson(frozen, 'http://127.0.0.1:3000', 'direct'),
    );
    // Another mode or base URL is another text.
    expect(JSON.parse(transactionViewJson(frozen, 'http://127.0.0.1:3000', 'checkout')).payment_url).toBe('http://127.0.0.1:3000/pay/tx_1');
    expect(JSON.parse(transactionViewJson(frozen, 'http://localhost:9', 'checkout')).payment_url).toBe('http://localhost:9/pay/tx_1');
    // A changed transaction is a new object: its own text.
    const settled = Object.freeze({ ...frozen, status: 'SUCCEEDED' as const });
    expect(JSON.parse(transactionViewJson(settled, 'http://127.0.0.1:3000', 'direct')).status).toBe('SUCCEEDED');
    // An entity that is not frozen (read inside a unit of work) is not kept: changing it shows.
    const loose = tx('tx_2', 2);
    transactionViewJson(loose, 'http://127.0.0.1:3000', 'direct');
    loose.status = 'FAILED';
    expect(JSON.parse(transactionViewJson(loose, 'http://127.0.0.1:3000', 'direct')).status).toBe('FAILED');
  });

  it('a page: the same text as JSON.stringify of the envelope, with and without cursors', () => {
    const scope = { list: 'transactions', scope: 'acc_a' };
    const rows = [tx('tx_3', 3), tx('tx_2', 2, 'SUCCEEDED')];
    for (const page of [
      { rows, nextKey: 2, previousKey: 3 },
      { rows, nextKey: null, previousKey: null },
      { rows: [], nextKey: null, previousKey: null },
    ]) {
      const view = (t: Transaction) => transactionView(t, 'http://x', 'direct');
      expect(pageEnvelopeJson(page, 20, (t) => JSON.stringify(view(t)), scope)).toBe(JSON.stringify(pageEnvelope(page, 20, view, scope)));
    }
  });
});
