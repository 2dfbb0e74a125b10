/** The wire format of a request-log entry, as the control API shows it. */
import { isoTimestamp } from '../../core/clock/clock.js';
import type { RequestLogEntry } from '../../core/http/ports.js';

export function requestLogView(entry: RequestLogEntry) {
  return {
    id: entry.seq,
    merchant_account_id: entry.account_id,
    method: entry.method,
    path: entry.path,
    status: entry.status,
    idempotency_key: entry.idempotency_key,
    replayed: entry.replayed,
    duration_ms: entry.duration_ms,
    request_body: entry.request_body,
    response_body: entry.response_body,
    warnings: entry.warnings,
    at: isoTimestamp(entry.at),
    answer_delivered: entry.answer_delivered,
  };
}
