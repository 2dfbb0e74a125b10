/**
 * Sending any body, signed: the merchant names an account, a body (a JSON value, sent as its
 * JSON text, or a string, sent byte for byte) and optionally a URL, and the body is queued in
 * the outbox as an ordinary delivery. The dispatcher then signs it as every delivery is signed
 * and gives it the same retries, log, faults and target guard: there is no second sender.
 */
import { randomUUID } from 'node:crypto';
import type { Delivery, DeliveryKind } from '../../core/domain/entities.js';
import { badRequest, notFound } from '../../core/domain/errors.js';

/** A webhook to queue, as the outbox takes it. */
export interface QueuedWebhookFields {
  account_id: string;
  kind: DeliveryKind;
  resource_id: string;
  url: string | null;
  body: string;
}

/** What the sender uses. */
export interface WebhookSendDeps {
  accounts: { byId(id: string): unknown };
  /** `--notification-url`, where a webhook without `url` goes. */
  defaultUrl: string | undefined;
  /** Why `url` may not receive webhooks (the guard of a notification_url), or null. */
  targetRefused(url: string): string | null;
  /**
   * Queues the delivery in the outbox (in its own unit of work), in the queue of the
   * transaction it names (`joinQueue`) or in one of its own; answers the stored row.
   */
  queue(fields: QueuedWebhookFields, joinQueue: boolean): Delivery;
  /** The account owning a payment's or refund's id and the URL its webhooks go to; undefined when unknown. */
  webhookSubject(id: string): { accountId: string; url: string | null } | undefined;
}

/** A body to send: which account's webhook it is, where it goes (default `--notification-url`), and the body. */
export interface SendWebhookRequest {
  accountId: string;
  url?: string | undefined;
  /** A JSON value (sent as its JSON text) or a string (sent byte for byte). */
  body: unknown;
}

const fieldError = (pointer: string, message: string) =>
  badRequest('Request failed validation', [{ type: 'value_error', pointer, message, location: 'body' }]);

/**
 * What a body is about, as the delivery log files it: a refund webhook names the original
 * transaction, anything else is filed as a payment webhook; the transaction (or refund) id is
 * the body's `ll_transaction_id` when it has one (`named`), else a new id of its own.
 */
function subjectOf(text: string): { kind: DeliveryKind; resourceId: string; named: boolean } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'payment', resourceId: randomUUID(), named: false };
  }
  const fields = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const kind: DeliveryKind = typeof fields.original_transaction_id === 'string' || 'refund_data' in fields ? 'refund' : 'payment';
  const id = fields.ll_transaction_id;
  const named = typeof id === 'string' && id !== '' && id.length <= 200;
  return { kind, resourceId: named ? id : randomUUID(), named };
}

/** The sender over `deps`. */
export function createWebhookSender(deps: WebhookSendDeps) {
  return {
    /**
     * Queues `request.body` as a delivery of `request.accountId`; answers it as stored.
     * It joins the queue of the transaction its `ll_transaction_id` names only when the
     * account owns that transaction and the URL is the transaction's own; otherwise it has a
     * queue of its own, so a dead URL never holds back the transaction's webhooks.
     * @throws 404 for an unknown account; 400 at `/url` without a URL or for one the guard
     * refuses; 400 at `/body/ll_transaction_id` for another account's transaction.
     */
    send(request: SendWebhookRequest): Delivery {
      if (!deps.accounts.byId(request.accountId)) throw notFound(`Merchant account ${request.accountId} not found`);
      const url = request.url ?? deps.defaultUrl;
      if (url === undefined) throw fieldError('/url', 'No url given and the sandbox has no --notification-url');
      const refused = deps.targetRefused(url);
      if (refused !== null) throw fieldError('/url', `Webhook target refused: ${refused}`);
      const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
      if (body === undefined) throw fieldError('/body', 'Required');
      const { kind, resourceId, named } = subjectOf(body);
      const subject = named ? deps.webhookSubject(resourceId) : undefined;
      if (subject && subject.accountId !== request.accountId)
        throw fieldError('/body/ll_transaction_id', `Transaction ${resourceId} belongs to another merchant account`);
      const joinQueue = subject !== undefined && subject.url === url;
      return deps.queue({ account_id: request.accountId, kind, resource_id: resourceId, url, body }, joinQueue);
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
