/**
 * Ready-to-run commands shown in empty states and on the credentials page, filled in with
 * the account's real credentials and this sandbox's address, so a developer can paste one
 * into a terminal and watch the panel react. Creates carry an `Idempotency-Key` (pasting one
 * twice replays the first answer instead of creating twice), and webhooks go to a handler on
 * port 3000 (the docs' Webhooks page has one in each language).
 */
import { shellQuote } from './dom.js';

/** @import { Account } from './types.js' */

const BASE = () => window.location.origin;

/**
 * @param {'GET' | 'POST'} method
 * @param {string} path
 * @param {Account} account
 * @param {unknown} [body]
 * @param {string[]} [extraHeaders]
 */
function curl(method, path, account, body, extraHeaders = []) {
  const lines = [`curl -X ${method} ${BASE()}${path}`];
  lines.push(`  -H ${shellQuote(`Authorization: Bearer ${account.api_key}`)}`);
  lines.push(`  -H ${shellQuote(`X-MERCHANT-ACCOUNT-ID: ${account.account_id}`)}`);
  for (const header of extraHeaders) lines.push(`  -H ${shellQuote(header)}`);
  if (body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`);
    lines.push(`  -d ${shellQuote(JSON.stringify(body, null, 2))}`);
  }
  return lines.join(' \\\n');
}

const CARD = { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' };
const BROWSER_INFO = { user_agent: 'curl', language: 'en-US', javascript_enabled: false };
const WEBHOOK_URL = 'http://127.0.0.1:3000/webhooks';

export const examples = {
  /** POST /v4/transactions for the account's mode (direct: card + browser_info; checkout: return_url). @param {Account} account */
  createTransaction(account) {
    /** @type {Record<string, unknown>} */
    const body = {
      amount: 1050,
      currency: 'USD',
      description: 'Order #1001',
      external_identifier: 'order-1001',
      notification_url: WEBHOOK_URL,
    };
    if (account.mode === 'direct') Object.assign(body, { payment_method: CARD, browser_info: BROWSER_INFO });
    else
      Object.assign(body, {
        customer: { email: 'jane@example.com', name: 'Jane Doe' },
        return_url: 'http://127.0.0.1:3000/thanks',
        cancel_url: 'http://127.0.0.1:3000/cart',
      });
    return curl('POST', '/v4/transactions', account, body, ['Idempotency-Key: order-1001']);
  },

  /** POST /v4/subscriptions, monthly plan. @param {Account} account */
  createSubscription(account) {
    /** @type {Record<string, unknown>} */
    const body = {
      external_identifier: 'sub-1001',
      amount: 999,
      currency: 'USD',
      customer: { email_address: 'jane@example.com', display_name: 'Jane Doe' },
      plan: { name: 'Pro', currency: 'USD', amount: 999, interval: 'month', interval_time: 1 },
      payment_method: account.mode === 'direct' ? { ...CARD, webhooks_url: WEBHOOK_URL } : { type: 'card', webhooks_url: WEBHOOK_URL },
    };
    if (account.mode === 'direct') body.browser_info = BROWSER_INFO;
    return curl('POST', '/v4/subscriptions', account, body, ['X-Forwarded-For: 203.0.113.7', 'Idempotency-Key: sub-1001']);
  },

  /** POST /_sandbox/transactions/{id}/settle (the control API needs no credentials). */
  /** @param {string} id */
  settle(id) {
    return `curl -X POST ${BASE()}/_sandbox/transactions/${id}/settle`;
  },

  /** GET /v4/transactions. @param {Account} account */
  listTransactions(account) {
    return curl('GET', '/v4/transactions?limit=5', account);
  },
};
