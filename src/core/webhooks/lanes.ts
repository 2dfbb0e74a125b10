/**
 * Per-URL lanes: up to `MAX_IN_FLIGHT_PER_URL` deliveries to one URL are under way at once,
 * the rest wait in order; different URLs never wait for each other, so a slow or hanging
 * receiver holds up only its own deliveries. A lane exists only while it is used.
 */
import { Slots } from './slots.js';

/** How many deliveries to one URL may be under way at once. */
export const MAX_IN_FLIGHT_PER_URL = 8;

export class Lanes {
  private readonly lanes = new Map<string, Slots>();

  constructor(private readonly perUrl = MAX_IN_FLIGHT_PER_URL) {}

  /** Resolves once `url` has a free slot for this delivery. */
  acquire(url: string): Promise<void> {
    let lane = this.lanes.get(url);
    if (!lane) {
      lane = new Slots(this.perUrl);
      this.lanes.set(url, lane);
    }
    return lane.acquire();
  }

  /** Hands the slot to the next waiting delivery to `url`, or frees it. */
  release(url: string): void {
    const lane = this.lanes.get(url);
    if (!lane) return;
    lane.release();
    if (lane.idle) this.lanes.delete(url);
  }

  /** How many URLs have a delivery under way or waiting. */
  get size(): number {
    return this.lanes.size;
  }
}
