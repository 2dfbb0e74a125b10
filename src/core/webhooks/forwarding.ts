/**
 * The port through which a webhook attempt is handed to a listener (`payment-sandbox listen`)
 * instead of being POSTed by the sandbox. The dispatcher asks it before each POST; the feature
 * that holds the listeners implements it. Whatever the listener reports is judged and recorded
 * exactly as a direct POST's answer: the same acknowledgement rule, retries and observers.
 */

/** One attempt as a listener receives it: the delivery's own headers and exact body. */
export interface ForwardedAttempt {
  deliveryId: string;
  accountId: string;
  /** The attempt's number (1 for the first). */
  number: number;
  kind: string;
  /** The transaction or refund the webhook is about. */
  resourceId: string;
  /** The delivery's notification URL (the listener posts to its own `--forward-to`). */
  url: string | null;
  headers: Record<string, string>;
  body: string;
}

/** What a listener reported, or why it never did. */
export type ForwardedAnswer =
  /** The merchant's answer: status and text (at most 1 MiB; `whole` says whether it all fitted), and the listener's round trip. */
  | { kind: 'answer'; status: number; text: string; whole: boolean; durationMs: number }
  /** No answer: a network error at the listener, the listener gone, or no report within the delivery timeout. */
  | { kind: 'error'; error: string; timedOut: boolean; durationMs?: number }
  /** The sandbox is stopping: the attempt is not recorded. */
  | { kind: 'aborted' };

export interface WebhookForwarding {
  /**
   * Hands the attempt to a listener of `attempt.accountId`'s deliveries and resolves with what
   * it reported; null when no listener takes that account's deliveries (then it is POSTed
   * directly). Never rejects.
   */
  forward(attempt: ForwardedAttempt): Promise<ForwardedAnswer> | null;
  /** The sandbox is stopping: every attempt under way resolves as `aborted`. */
  abort(): void;
}
