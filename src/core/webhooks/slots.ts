/**
 * A counting semaphore: at most `max` holders at once, the rest wait in order. A release hands
 * its place straight to the next waiter. Used for the deliveries under way per URL, the
 * deliveries signed ahead of their slot, and the RSA signatures on the thread pool.
 */
export class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  /** Resolves once a place is held (at once when one is free). */
  acquire(): Promise<void> {
    if (this.active < this.max) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Gives a place back: to the next waiter, or free. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }

  /** No place held and nobody waiting. */
  get idle(): boolean {
    return this.active === 0 && this.waiting.length === 0;
  }
}
