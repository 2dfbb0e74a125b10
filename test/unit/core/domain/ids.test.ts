/** The ids of created records: UUIDs of version 7, each greater than the one before. */
import { describe, expect, it } from 'vitest';
import { idGenerator, newId } from '../../../../src/core/domain/ids.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The milliseconds an id carries in its first 48 bits. */
const msOf = (id: string): number => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);

describe('ids of created records', () => {
  it('are UUIDs of version 7 and the RFC 9562 variant, carrying the milliseconds they were made at', () => {
    const at = Date.UTC(2031, 0, 2, 3, 4, 5, 678);
    const id = idGenerator(() => at)();
    expect(id).toMatch(V7);
    expect(msOf(id)).toBe(at);
    const before = Date.now();
    expect(msOf(newId())).toBeGreaterThanOrEqual(before);
  });

  it('grow as text within one millisecond, past the 12 bits of its counter, and when the clock steps back', () => {
    const at = Date.UTC(2032, 5, 6);
    let now = at;
    const next = idGenerator(() => now);
    const ids = [next()];
    for (let i = 0; i < 5000; i++) ids.push(next()); // more than the counter's 4,096 in one millisecond
    now = at - 1000; // the real clock set back a second
    for (let i = 0; i < 10; i++) ids.push(next());
    for (const id of ids) expect(id).toMatch(V7);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!, `${ids[i]} after ${ids[i - 1]}`).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(msOf(ids[ids.length - 1]!)).toBeLessThanOrEqual(at + 2); // borrowed at most the next milliseconds
  });

  it('keep 62 random bits: two ids of one millisecond differ beyond the counter', () => {
    const next = idGenerator(() => Date.UTC(2033, 0, 1));
    expect(next().slice(19)).not.toBe(next().slice(19));
  });
});
