/** What "delivered" means: what a merchant's answer to a webhook must be to acknowledge it. */

/** True when a merchant's answer acknowledges the webhook: 2xx with JSON `{"code":"200","message":"SUCCESS"}`. */
export function isAcknowledgement(status: number, body: string): boolean {
  if (status < 200 || status > 299) return false;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed === null || typeof parsed !== 'object') return false;
    const { code, message } = parsed as { code?: unknown; message?: unknown };
    return code === '200' && message === 'SUCCESS';
  } catch {
    return false;
  }
}
