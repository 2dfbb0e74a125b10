/**
 * The sandbox's change feed: every state change and delivery attempt is emitted here once
 * it is committed; `GET /_sandbox/events` streams it to the panel as server-sent events.
 */
import { EventEmitter } from 'node:events';

/**
 * Every kind of change on the feed: a closed list, so an emitter cannot invent one the panel
 * does not know (the panel's types import it, `public/panel/api.js`).
 */
export const CHANGE_TYPES = [
  'account.created',
  'account.updated',
  'api_key.created',
  'api_key.revoked',
  'transaction.created',
  'transaction.updated',
  'refund.created',
  'subscription.created',
  'subscription.updated',
  'delivery.attempted',
  'request.logged',
  'report.changed',
  'clock.advanced',
  'scenarios.changed',
  'sandbox.reset',
] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

export interface SandboxEvent {
  type: ChangeType;
  /** The merchant account the change belongs to, or null for sandbox-wide changes. */
  account_id: string | null;
  data: unknown;
  /** Sandbox-clock time of the change, ISO 8601. */
  at: string;
}

export class SandboxEvents {
  private readonly emitter = new EventEmitter();
  private sequence = 0;
  /** How many subscribers of only some types want each type (`subscribeTo`). */
  private readonly wanted = new Map<ChangeType, number>();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  emit(event: SandboxEvent): void {
    this.sequence += 1;
    const numbered = { id: this.sequence, ...event };
    this.emitter.emit('event', numbered);
    if (this.wanted.has(event.type)) this.emitter.emit(`type:${event.type}`, numbered);
  }

  /** Whether anyone listens to any change. */
  get listened(): boolean {
    return this.wanted.size > 0 || this.emitter.listenerCount('event') > 0;
  }

  /** Whether anyone listens to changes of `type` (the feed costs nothing while no panel is open, nor for a type only the terminal ignores). */
  listens(type: ChangeType): boolean {
    return this.wanted.has(type) || this.emitter.listenerCount('event') > 0;
  }

  /** Subscribes to the changes of `types` only; returns the unsubscribe function. */
  subscribeTo(types: readonly ChangeType[], listener: (event: SandboxEvent & { id: number }) => void): () => void {
    for (const type of types) {
      this.emitter.on(`type:${type}`, listener);
      this.wanted.set(type, (this.wanted.get(type) ?? 0) + 1);
    }
    return () => {
      for (const type of types) {
        this.emitter.off(`type:${type}`, listener);
        const left = (this.wanted.get(type) ?? 1) - 1;
        if (left > 0) this.wanted.set(type, left);
        else this.wanted.delete(type);
      }
    };
  }

  /** Subscribes (and to the end of the feed, if given); returns the unsubscribe function. */
  subscribe(listener: (event: SandboxEvent & { id: number }) => void, onEnd?: () => void): () => void {
    this.emitter.on('event', listener);
    if (onEnd) this.emitter.on('end', onEnd);
    return () => {
      this.emitter.off('event', listener);
      if (onEnd) this.emitter.off('end', onEnd);
    };
  }

  /** Hears when the feed ends (the sandbox is stopping) without hearing its changes; returns the function that stops hearing. */
  onEnd(listener: () => void): () => void {
    this.emitter.on('end', listener);
    return () => this.emitter.off('end', listener);
  }

  /** Ends every subscriber's stream (the sandbox is stopping). */
  end(): void {
    this.emitter.emit('end');
  }
}
