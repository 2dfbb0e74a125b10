/**
 * The panel's only way to the sandbox: the control API under /_sandbox (JSON, the API's
 * error envelope on failure) and its server-sent event stream. Nothing here knows the UI.
 */

import { adminToken, showSignIn } from './sign-in.js';

/** @typedef {{ code?: string, message?: string, details?: Array<{ pointer: string, message: string, location?: string }> }} ErrorEnvelope */

/** A failed control call, carrying the API's error envelope. */
export class ApiError extends Error {
  /**
   * @param {number} status HTTP status, 0 when the sandbox could not be reached
   * @param {ErrorEnvelope | null} envelope
   */
  constructor(status, envelope) {
    super(envelope?.message ?? (status === 0 ? 'The sandbox is not reachable. Is it still running?' : `HTTP ${status}`));
    this.name = 'ApiError';
    this.status = status;
    this.code = envelope?.code ?? (status === 0 ? 'network_error' : 'http_error');
    this.details = envelope?.details ?? [];
  }
}

/**
 * Calls the control API: `call('POST', '/transactions/abc/settle')`. The caller names the
 * answer's type (the route's response schema, see types.js).
 * @template T
 * @param {'GET' | 'POST' | 'DELETE'} method
 * @param {string} path under /_sandbox
 * @param {unknown} [body] sent as JSON when given
 * @returns {Promise<T>}
 */
export async function call(method, path, body) {
  /** @type {RequestInit} */
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json', 'x-sandbox-request': 'panel' };
  const token = adminToken();
  if (token) headers['x-sandbox-admin-token'] = token;
  /** @type {RequestInit} */
  const init = { method, headers };
  if (body !== undefined) {
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(`/_sandbox${path}`, init);
  } catch {
    throw new ApiError(0, null);
  }
  const text = await response.text();
  /** @type {unknown} */
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (response.status === 401 && /** @type {ErrorEnvelope | null} */ (data)?.code === 'admin_token_required') showSignIn(Boolean(token));
  if (!response.ok)
    throw new ApiError(
      response.status,
      /** @type {ErrorEnvelope | null} */ (data) ?? { message: text.slice(0, 300) || `HTTP ${response.status}` },
    );
  return /** @type {T} */ (data);
}

/**
 * A query string from the defined values: `query({ account_id: 'a', cursor: undefined })` -> "?account_id=a".
 * @param {Record<string, string | number | null | undefined>} params
 */
export function query(params) {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * @typedef {{ type: import('../../src/core/domain/events.js').ChangeType, account_id: string | null, data: unknown, at: string }} ChangeEvent
 */

/**
 * Follows `GET /_sandbox/events`. `onChange(event)` gets each change ({type, account_id, data}),
 * `onStatus('live' | 'reconnecting')` the connection state; every (re)connection's `ready`
 * is reported as 'live' so the caller reloads what it may have missed. EventSource retries
 * on its own after a drop.
 */
/**
 * @param {{ onChange(event: ChangeEvent): void, onStatus(status: 'live' | 'reconnecting'): void }} handlers
 */
export function followEvents({ onChange, onStatus }) {
  const token = adminToken();
  const source = new EventSource(token ? `/_sandbox/events?token=${encodeURIComponent(token)}` : '/_sandbox/events');
  source.addEventListener('ready', () => onStatus('live'));
  source.addEventListener('change', (message) => {
    try {
      onChange(JSON.parse(message.data));
    } catch (err) {
      console.error('payment-sandbox panel: bad event', err);
    }
  });
  source.addEventListener('error', () => onStatus('reconnecting'));
  return () => source.close();
}
