/** The wire format of a webhook delivery and its attempts, as the control API shows them. */
import { isoTimestamp } from '../../core/clock/clock.js';
import type { Delivery, DeliveryAttempt } from '../../core/domain/entities.js';

export function attemptView(attempt: DeliveryAttempt) {
  return {
    number: attempt.number,
    at: isoTimestamp(attempt.at),
    url: attempt.url,
    request_headers: attempt.request_headers,
    response_status: attempt.response_status,
    response_body: attempt.response_body,
    error: attempt.error,
    duration_ms: attempt.duration_ms,
    ok: attempt.ok,
  };
}

export function deliveryView(delivery: Delivery, attempts: DeliveryAttempt[]) {
  return {
    id: delivery.id,
    merchant_account_id: delivery.account_id,
    kind: delivery.kind,
    resource_id: delivery.resource_id,
    url: delivery.url,
    status: delivery.status,
    fault: delivery.fault,
    canary: delivery.canary === 1,
    attempts_count: delivery.attempts,
    next_attempt_at: delivery.next_attempt_at === null ? null : isoTimestamp(delivery.next_attempt_at),
    body: delivery.body,
    created_at: isoTimestamp(delivery.created_at),
    delivered_at: delivery.delivered_at === null ? null : isoTimestamp(delivery.delivered_at),
    attempts: attempts.map(attemptView),
  };
}
