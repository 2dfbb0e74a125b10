/**
 * The request log as the control API shows it: a logged /v4 request with its error envelope
 * parsed, so the panel need not. (The control records of transactions, subscriptions and
 * deliveries are their features' own: `transactionViews`, `subscriptionViews`, `deliveryViews`.)
 */
import type { RequestLogEntry as RequestLogRow } from '../../core/http/ports.js';
import type { RequestLogEntry } from './control/requests.schemas.js';
import { requestLogView } from './request-log-format.js';

/** The error envelope of a logged failed request, or null. */
function loggedError(row: RequestLogRow): RequestLogEntry['error'] {
  if (row.status < 400 || !row.response_body) return null;
  let body: unknown;
  try {
    body = JSON.parse(row.response_body);
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const { code, message, details } = body as { code?: unknown; message?: unknown; details?: unknown };
  return {
    code: typeof code === 'string' ? code : 'error',
    message: typeof message === 'string' ? message : '',
    details: Array.isArray(details) ? (details as NonNullable<RequestLogEntry['error']>['details']) : [],
  };
}

/** A logged /v4 request with its error envelope parsed. */
export function requestLogEntry(row: RequestLogRow): RequestLogEntry {
  return { ...requestLogView(row), error: loggedError(row) };
}
