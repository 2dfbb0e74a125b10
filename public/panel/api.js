/**
 * The panel's only way to the sandbox: the control API under /_sandbox (JSON, the API's
 * error envelope on failure) and its server-sent event stream. Nothing here knows the UI.
 */

/** A failed control call, carrying the API's error envelope. */
export class ApiError extends Error {
  /**
   * @param {number} status HTTP status, 0 when the sandbox could not be reached
   * @param {{ code?: string, message?: string, details?: Array<{ pointer: string, message: string, location?: string }> } | null} envelope
   */
  constructor(status, envelope) {
    super(envelope?.message ?? (status === 0 ? 'The sandbox is not reachable. Is it still running?' : `HTTP ${status}`));
    this.name = 'ApiError';
    this.status = status;
    this.code = envelope?.code ?? (status === 0 ? 'network_error' : 'http_error');
    this.details = Array.isArray(envelope?.details) ? envelope.details : [];
  }

  /** True when the route itself does not exist (an endpoint this sandbox build lacks). */
  get routeMissing() {
    return (this.status === 404 || this.status === 405) && /^(No route|Method)/.test(this.message);
  }
}

/**
 * Calls the control API: `call('POST', '/transactions/abc/settle')`.
 * @param {'GET' | 'POST'} method
 * @param {string} path under /_sandbox
 * @param {unknown} [body] sent as JSON when given
 */
export async function call(method, path, body) {
  /** @type {RequestInit} */
  const init = { method, headers: { accept: 'application/json' } };
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
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data ?? { message: text.slice(0, 300) || `HTTP ${response.status}` });
  return data;
}

/** A query string from the defined values: `query({ account_id: 'a', cursor: undefined })` -> "?account_id=a". */
export function query(params) {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * Follows `GET /_sandbox/events`. `onChange(event)` gets each change ({type, account_id, data}),
 * `onStatus('live' | 'reconnecting')` the connection state; every (re)connection's `ready`
 * is reported as 'live' so the caller reloads what it may have missed. EventSource retries
 * on its own after a drop.
 */
export function followEvents({ onChange, onStatus }) {
  const source = new EventSource('/_sandbox/events');
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
