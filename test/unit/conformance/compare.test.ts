/**
 * What `--compare-url` compares of a page: the records its check created (not what earlier use
 * of the account left), and `next_cursor` only where the check created more than a page; a
 * field missing from one of its own records stays a difference.
 */
import { describe, expect, it } from 'vitest';
import { controlledBody, diffShapes, normalise } from '../../../src/features/conformance/run.js';
import type { Exchange } from '../../../src/features/conformance/report.js';

const record = (id: string, extra: Record<string, unknown> = {}) => ({ id, amount: 1050, status: 'SUCCEEDED', ...extra });
const created = (id: string): Exchange => ({
  request: { method: 'POST', path: '/transactions', body: {} },
  response: { status: 201, headers: {}, body: record(id) },
});
const page = (items: unknown[], limit: number, next: string | null): Exchange => ({
  request: { method: 'GET', path: `/transactions?limit=${limit}` },
  response: { status: 200, headers: {}, body: { items, limit, next_cursor: next, previous_cursor: null } },
});

/** The differences between two runs of one check (creates, then a page), as the comparison sees them. */
function differences(left: Exchange[], right: Exchange[]) {
  return left.flatMap((_, i) => diffShapes(normalise(controlledBody(left, i)), normalise(controlledBody(right, i))));
}

describe('conformance comparison of pages', () => {
  it("counts only the check's own records: a used account's older records are no difference", () => {
    const fresh = [created('a1'), page([record('a1'), record('old-a')], 20, null)];
    const used = [
      created('b1'),
      page([record('b1'), ...Array.from({ length: 19 }, (_, i) => record(`old-${i}`, { refunded_amount: 100 }))], 20, 'c'),
    ];
    expect(differences(fresh, used)).toEqual([]);
  });

  it('compares next_cursor only where the check created more records than the page holds', () => {
    const fewer = (next: string | null, id: string) => [
      created(`${id}1`),
      created(`${id}2`),
      page([record(`${id}2`), record(`${id}1`)], 5, next),
    ];
    expect(differences(fewer(null, 'a'), fewer('cursor', 'b'))).toEqual([]);
    const more = (next: string | null, id: string) => [
      created(`${id}1`),
      created(`${id}2`),
      created(`${id}3`),
      page([record(`${id}3`), record(`${id}2`)], 2, next),
    ];
    expect(differences(more('cursor', 'a'), more('cursor', 'b'))).toEqual([]);
    expect(differences(more('cursor', 'a'), more(null, 'b'))).toEqual([{ pointer: '/next_cursor', left: 'string', right: 'null' }]);
  });

  it("still names a field missing from the check's own record, and a record of its own missing from the page", () => {
    const left = [created('a1'), page([record('a1', { description: 'x' })], 20, null)];
    const right = [created('b1'), page([record('b1')], 20, null)];
    expect(differences(left, right)).toEqual([{ pointer: '/items/0/description', left: 'string', right: 'missing' }]);
    const lost = [created('c1'), page([record('old')], 20, null)];
    expect(differences(left, lost)).toContainEqual({ pointer: '/items', left: 'array of 1', right: 'array of 0' });
  });
});
