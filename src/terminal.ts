/**
 * What the terminal shows while the sandbox runs, read from the sandbox's change feed: one
 * line per webhook delivery attempt (`delivery.attempted`: kind, resource, target, HTTP
 * status or error, next retry on the sandbox clock), like `stripe listen`, and with `--log`
 * one line per API request (`request.logged`). Lines go through the logger, so
 * `--log-format json` makes them JSON lines, `--quiet` silences them, and secrets and card
 * numbers are redacted. Nothing here reads a store or touches the domain.
 */
import type { ChangeType } from './core/domain/events.js';
import type { Logger } from './core/log.js';

/** The part of the change feed (`sandbox.events`) the terminal listens to: only the types it prints. */
export interface ChangeFeed {
  subscribeTo(types: readonly ChangeType[], listener: (event: { type: string; data: unknown }) => void): () => void;
}

export interface TerminalOptions {
  /** Print a line per API request (`--log`). */
  requests: boolean;
}

/**
 * Prints delivery attempts (and requests, if asked) from `feed` through `logger`.
 * @returns the function that stops printing.
 */
export function attachTerminal(feed: ChangeFeed, logger: Logger, options: TerminalOptions): () => void {
  // Without `--log` the requests are not asked for: the request log builds no `request.logged` for the terminal.
  const types: ChangeType[] = options.requests ? ['delivery.attempted', 'request.logged'] : ['delivery.attempted'];
  return feed.subscribeTo(types, (event) => {
    if (event.type === 'delivery.attempted') printDelivery(logger, event.data);
    else if (event.type === 'request.logged' && options.requests) printRequest(logger, event.data);
  });
}

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const count = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/**
 * A webhook target as shown: no user name or password, query values hidden (a merchant may
 * put a token there).
 */
export function displayUrl(url: string | null): string {
  if (url === null) return '(no notification URL)';
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    for (const key of [...parsed.searchParams.keys()]) parsed.searchParams.set(key, '***');
    return parsed.toString().replace(/%2A%2A%2A/g, '***');
  } catch {
    return '(invalid URL)';
  }
}

/** `2026-11-22T10:00:05.000Z webhook payment tx_1 -> http://…/hook  500 merchant answered HTTP 500 (attempt 1); next retry 2026-…Z` */
function printDelivery(logger: Logger, data: unknown): void {
  if (!isFields(data)) return;
  const kind = text(data.kind) ?? 'webhook';
  const resource = text(data.resource_id) ?? '';
  const url = displayUrl(text(data.url));
  const attempt = count(data.number);
  const status = count(data.status);
  const ok = data.ok === true;
  const error = text(data.error);
  const next = text(data.next_attempt_at);
  const at = text(data.at) ?? '';
  const result = ok ? `${status ?? ''} delivered` : `${status ?? 'ERR'} ${error ?? 'failed'}`;
  const after = ok ? '' : next ? `; next retry ${next} (sandbox clock)` : '; no more retries (resend from the panel)';
  logger.info('delivery.attempted', `${at} webhook ${kind} ${resource} -> ${url}  ${result} (attempt ${attempt ?? '?'})${after}`, {
    delivery_id: text(data.id),
    kind,
    resource_id: resource,
    url,
    attempt,
    ok,
    status,
    error,
    next_attempt_at: next,
    at,
  });
}

/** `POST /v4/transactions 201 12.5ms` */
function printRequest(logger: Logger, data: unknown): void {
  if (!isFields(data)) return;
  const method = text(data.method) ?? '?';
  const path = text(data.path) ?? '?';
  const status = count(data.status);
  const duration = count(data.duration_ms);
  logger.info('request', `${method} ${path} ${status ?? '?'} ${duration === null ? '' : `${duration.toFixed(1)}ms`}`.trimEnd(), {
    method,
    path,
    status,
    duration_ms: duration,
  });
}
