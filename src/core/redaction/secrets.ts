/**
 * Secrets never reach a log: the one pattern of every credential a request may carry, used
 * by the request log (path, query, headers, bodies), the idempotency records and the process
 * log. It finds API keys of every form (`sk_test_…`, `sk_live_…`, restricted `sk_test_rk_…`
 * and `sk_live_rk_…`, the demo keys with their underscores), JWTs (`eyJ….….…`) and any
 * `Bearer` token, wherever they stand in a text. A key is a key after anything but a letter
 * (a digit, punctuation, a percent-encoded byte such as `%2C` or `%2F`), so a word that
 * merely ends in `sk` (`task_test_…`) is no key.
 */
const SECRET_SOURCE = String.raw`\bBearer\s+[^\s"',;&]+|(?:(?<=%[0-9A-Fa-f]{2})|(?<![A-Za-z]))sk_(?:test|live)_[A-Za-z0-9_-]+|(?:(?<=%[0-9A-Fa-f]{2})|(?<![\w-]))eyJ[\w-]*\.[\w-]+\.[\w-]*`;

/** Every secret in a text (global: for `replace`). */
export const SECRET_PATTERN = new RegExp(SECRET_SOURCE, 'gi');
/** The same pattern without the global flag, for a test that keeps no state. */
const HAS_SECRET = new RegExp(SECRET_SOURCE, 'i');

/** Whether `text` holds a secret. */
export function holdsSecret(text: string): boolean {
  return HAS_SECRET.test(text);
}

/** What a secret becomes: its kind stays readable (`sk_test_[redacted]`, `Bearer [redacted]`, `[redacted JWT]`), the secret does not. */
function mark(secret: string): string {
  const bearer = /^Bearer\s+/i.exec(secret);
  if (bearer) return `${bearer[0]}[redacted]`;
  const key = /^sk_(test|live)_/i.exec(secret);
  if (key) return `${key[0]}[redacted]`;
  return '[redacted JWT]';
}

/**
 * What every secret holds, in any case (`Bearer`, `sk_test_`, `sk_live_`, a JWT's `eyJ`): a
 * text without one holds no secret and is not scanned with the whole pattern.
 */
const SECRET_MARKER = /bearer|sk_(?:test|live)_|eyj/i;

/** `text` with every secret replaced by its mark. */
export function redactSecrets(text: string): string {
  return SECRET_MARKER.test(text) ? text.replace(SECRET_PATTERN, mark) : text;
}
