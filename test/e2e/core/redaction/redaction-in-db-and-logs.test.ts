/**
 * Card data never reaches the disk: a sandbox with `--db <file>` over a real socket takes
 * direct-mode card payments (plain, idempotent, replayed, refused by validation, with
 * malformed JSON) and a direct subscription with card fields; once it has stopped, the bytes
 * of the database file (and its -wal) hold no full card number and no security code. The
 * request log shows the masked number (`•••• 1111`), as the panel sees it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { maskCardNumber, redactBody, redactText } from '../../../../src/core/http/redact.js';
import { startServer } from '../../../../src/server.js';
import { directSubscription } from '../../../support/subscriptions.js';
import { DIRECT, directPayment, headers } from '../../../support/app.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-redaction-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Test cards that no rule of the default scenario names (a rule's label, stored with a matched payment, holds its own magic number). */
const CARDS = ['4111111111111111', '6011111111111117', '2223003122003222', '378282246310005'];
const MAGIC_DECLINED = '4000000000000002';
const CODES = ['739', '846', '520']; // 3 digits: none of CARDS[0..2] is American Express

describe('card data in the --db file', () => {
  it('neither full card numbers nor security codes are stored anywhere', async () => {
    const db = join(dir, 'sandbox.db');
    const server = await startServer({ port: 0, ticker: false, db });
    const post = (path: string, payload: string, extra: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: headers(DIRECT, extra), body: payload });
    const card = (number: string, code: string) => ({ type: 'card', number, expiration_date: '12/30', security_code: code });
    const statuses: number[] = [];
    try {
      statuses.push((await post('/v4/transactions', JSON.stringify(directPayment({ payment_method: card(CARDS[0]!, CODES[0]!) })))).status);
      for (let i = 0; i < 2; i++) {
        // An idempotent create and its replay.
        statuses.push(
          (
            await post('/v4/transactions', JSON.stringify(directPayment({ payment_method: card(CARDS[1]!, CODES[1]!) })), {
              'idempotency-key': 'redact-1',
            })
          ).status,
        );
      }
      // A magic card of the default scenario (declined at once), then another card.
      statuses.push(
        (await post('/v4/transactions', JSON.stringify(directPayment({ payment_method: card(MAGIC_DECLINED, CODES[2]!) })))).status,
      );
      statuses.push((await post('/v4/transactions', JSON.stringify(directPayment({ payment_method: card(CARDS[2]!, CODES[2]!) })))).status);
      // Refused by validation (the request is logged with its error answer).
      statuses.push(
        (await post('/v4/transactions', JSON.stringify(directPayment({ amount: 'ten', payment_method: card(CARDS[0]!, CODES[0]!) }))))
          .status,
      );
      // Malformed JSON: only the text exists.
      statuses.push(
        (await post('/v4/transactions', `{"payment_method": {"number": "${CARDS[3]}", "security_code": "${CODES[0]}"},`)).status,
      );
      // Unknown fields next to the card (warnings).
      statuses.push(
        (
          await post(
            '/v4/transactions',
            JSON.stringify(directPayment({ payment_method: { ...card(CARDS[0]!, CODES[1]!), cvv: CODES[2] } })),
          )
        ).status,
      );
      const sub = directSubscription({ payment_method: { ...card(CARDS[1]!, CODES[2]!), webhooks_url: 'http://127.0.0.1:9/hooks' } });
      statuses.push((await post('/v4/subscriptions', JSON.stringify(sub), { 'x-forwarded-for': '203.0.113.7' })).status);

      const log = (await (await fetch(`${server.url}/_sandbox/requests?account_id=${DIRECT.account_id}&limit=100`)).json()) as {
        items: { request_body: string | null }[];
      };
      expect(log.items.map((i) => i.request_body).join('\n')).toContain('•••• 1111');
    } finally {
      await server.stop();
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 400, 400, 201, 201]);

    const files = [db, `${db}-wal`].filter((f) => existsSync(f));
    const bytes = files.map((f) => readFileSync(f).toString('latin1')).join('\n');
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes).toContain('acc_demo_direct');
    for (const number of CARDS) expect(bytes, number).not.toContain(number);
    expect(bytes).not.toContain('security_code');
    expect(bytes).not.toMatch(/"cvv"/);
    for (const code of CODES) expect(bytes, code).not.toContain(`"${code}"`);
  });
});

describe('redaction', () => {
  it('masks card numbers to their last four digits and drops security codes, at any depth', () => {
    expect(maskCardNumber('4111111111111111')).toBe('•••• 1111');
    expect(
      redactBody({
        a: [{ payment_method: { number: '4111111111111111', security_code: '123', type: 'card' } }],
        note: 'card 5555555555554444',
      }),
    ).toEqual({
      a: [{ payment_method: { number: '•••• 1111', type: 'card' } }],
      note: 'card •••• 4444',
    });
  });

  it('redacts text that is not valid JSON, and leaves other digits alone', () => {
    expect(redactText('{"number": "4111111111111112", "security_code": "123", "x": 1')).toBe('{"number": "•••• 1112", "x": 1');
    expect(redactText('order 123456789012 at 1700000000000')).toBe('order 123456789012 at 1700000000000');
  });
});
