/**
 * Ids of the records a create writes (transactions, refunds, webhook deliveries): UUIDs of
 * version 7 (RFC 9562), whose first 48 bits are the milliseconds of the real time they were
 * made. Each id of this process is greater than the one before, as text too, so the UNIQUE
 * index of an id column grows at its right edge: a new id touches the index's last page
 * instead of a random one, which stops fitting the page cache once a table holds tens of
 * thousands of rows (see docs/benchmarks.md, "Storage by figures").
 *
 * Within one millisecond the 12 bits after the version (`rand_a`) count up from a random start
 * (RFC 9562 §6.2, method 1); should they run out, the next ids borrow the following
 * millisecond. The other 62 bits are random. The time is the real clock's, not the sandbox
 * clock's: an id orders records, it does not date them (`created_at` does).
 */
import { randomFillSync } from 'node:crypto';

/** Random bytes drawn 4 KiB at a time: one call to the system's generator per 409 ids. */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The next bytes of the pool, refilled when spent. */
function randomAt(n: number): number {
  if (poolAt + n > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const at = poolAt;
  poolAt += n;
  return at;
}

/**
 * A generator of UUIDs of version 7 on the clock `now` (the real time's milliseconds): each id
 * it gives is greater than every id it gave before.
 */
export function idGenerator(now: () => number = Date.now): () => string {
  let lastMs = -1;
  let counter = 0;
  return () => {
    const r = randomAt(10);
    const nowMs = now();
    if (nowMs > lastMs) {
      lastMs = nowMs;
      counter = ((pool[r]! << 8) | pool[r + 1]!) & 0x7ff; // a random start in the lower half: room to count up
    } else if (counter < 0xfff) {
      counter++;
    } else {
      lastMs++;
      counter = 0;
    }
    const high = Math.floor(lastMs / 0x1000000); // the first 24 of the 48 bits
    const low = lastMs % 0x1000000;
    return (
      HEX[(high >>> 16) & 0xff]! +
      HEX[(high >>> 8) & 0xff]! +
      HEX[high & 0xff]! +
      HEX[(low >>> 16) & 0xff]! +
      '-' +
      HEX[(low >>> 8) & 0xff]! +
      HEX[low & 0xff]! +
      '-' +
      HEX[0x70 | (counter >>> 8)]! +
      HEX[counter & 0xff]! +
      '-' +
      HEX[0x80 | (pool[r + 2]! & 0x3f)]! +
      HEX[pool[r + 3]!]! +
      '-' +
      HEX[pool[r + 4]!]! +
      HEX[pool[r + 5]!]! +
      HEX[pool[r + 6]!]! +
      HEX[pool[r + 7]!]! +
      HEX[pool[r + 8]!]! +
      HEX[pool[r + 9]!]!
    );
  };
}

/** A new id of a created record: the process's one generator, on the real time. */
export const newId: () => string = idGenerator();
