/**
 * The connected listeners (`payment-sandbox listen`) and the attempts handed to them: the
 * feature's side of the dispatcher's forwarding port. An attempt goes to the listener connected
 * last that takes its account's deliveries (one named account, or all). The listener's report
 * settles it; a listener that goes away before reporting, or a report that does not come within
 * the delivery timeout (and a short grace for the way back), settles it as a network failure, so
 * it is retried as any failed attempt (directly, or to the next listener). A delivery without a
 * URL waiting for its retry is due as soon as a listener of its account connects
 * (`WebhookDispatcher.carryWaiting`).
 */
import type { AttemptMessage } from './listen.schemas.js';
import type { ForwardedAnswer, ForwardedAttempt, WebhookForwarding } from '../../core/webhooks/forwarding.js';

/** How long past the delivery timeout the sandbox waits for a listener's report (the report's own way back). */
export const REPORT_GRACE_MS = 2_000;

/** Where a listener's messages go (its open stream). */
export interface ListenerSink {
  send(message: AttemptMessage): void;
}

interface Pending {
  listener: Listener;
  settle: (answer: ForwardedAnswer) => void;
}

interface Listener {
  id: string;
  /** The account whose deliveries it takes; null: every account's. */
  accountId: string | null;
  sink: ListenerSink;
}

export class Listeners implements WebhookForwarding {
  /** In the order they connected: the last one that matches takes an attempt. */
  private readonly listeners: Listener[] = [];
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly deps: {
      /** `--delivery-timeout` in milliseconds. */
      timeoutMs: number;
      newId: () => string;
      /** How long past the timeout a report may take (default `REPORT_GRACE_MS`). */
      graceMs?: number;
      /** A listener of `accountId`'s deliveries (null: every account's) connected: what only it can carry may go now. */
      connected?: (accountId: string | null) => void;
    },
  ) {}

  /** How many listeners are connected. */
  get size(): number {
    return this.listeners.length;
  }

  /** A listener connects; the function returned disconnects it (its attempts under way fail as network errors). */
  connect(accountId: string | null, sink: ListenerSink): { id: string; disconnect: () => void } {
    const listener: Listener = { id: this.deps.newId(), accountId, sink };
    this.listeners.push(listener);
    this.deps.connected?.(accountId);
    return { id: listener.id, disconnect: () => this.disconnect(listener) };
  }

  forward(attempt: ForwardedAttempt): Promise<ForwardedAnswer> | null {
    if (this.listeners.length === 0) return null; // the direct path pays one check
    const listener = this.listeners.findLast((l) => l.accountId === null || l.accountId === attempt.accountId);
    if (!listener) return null;
    const id = this.deps.newId();
    const { timeoutMs } = this.deps;
    return new Promise<ForwardedAnswer>((resolve) => {
      const timer = setTimeout(
        () => settle({ kind: 'error', error: `no answer within ${timeoutMs / 1000} s (through the listener)`, timedOut: true }),
        timeoutMs + (this.deps.graceMs ?? REPORT_GRACE_MS),
      );
      const settle = (answer: ForwardedAnswer): void => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        resolve(answer);
      };
      this.pending.set(id, { listener, settle });
      listener.sink.send({
        id,
        delivery_id: attempt.deliveryId,
        account_id: attempt.accountId,
        number: attempt.number,
        kind: attempt.kind,
        resource_id: attempt.resourceId,
        url: attempt.url,
        headers: attempt.headers,
        body: attempt.body,
      });
    });
  }

  /** A listener's report of attempt `id`; false when no such attempt waits for one (already settled, or unknown). */
  report(id: string, answer: ForwardedAnswer): boolean {
    const pending = this.pending.get(id);
    if (!pending) return false;
    pending.settle(answer);
    return true;
  }

  abort(): void {
    for (const pending of [...this.pending.values()]) pending.settle({ kind: 'aborted' });
  }

  private disconnect(listener: Listener): void {
    const at = this.listeners.indexOf(listener);
    if (at === -1) return;
    this.listeners.splice(at, 1);
    for (const pending of [...this.pending.values()]) {
      if (pending.listener === listener)
        pending.settle({ kind: 'error', error: 'the listener disconnected before reporting an answer', timedOut: false });
    }
  }
}
