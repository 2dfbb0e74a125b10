/**
 * Card data in every form a merchant's code might send it: a form-encoded and a
 * multipart body, `securityCode`, `security\u005fcode` in malformed JSON, a card number in a
 * query string (`?cursor=`, `/v4/buyers?search=`), in the path, in `Idempotency-Key` and
 * `X-Merchant-Account-Id`, and in a `metadata` value (a security-code key in `metadata` keeps
 * its value in the record, so it is not one of these forms). Used by the in-process and the
 * `--db` tests.
 */
import { DIRECT, directPayment, headers } from './app.js';

/** Luhn-valid test cards, one per form (none is a magic card of the default scenario). */
export const FORM_CARDS = {
  form: '4111111111111111',
  formGrouped: '5555 5555 5555 4444',
  multipart: '4000 0566 5566 5556',
  camel: '6011111111111117',
  escaped: '3530111333300000',
  cursor: '5105105105105100',
  search: '4012888888881881',
  path: '378282246310005',
  idempotencyKey: '6011000990139424',
  accountHeader: '3566002020360505',
  metadata: '4242-4242-4242-4242',
} as const;

/** The security code sent in every form: found only by the key it is under. */
export const FORM_CODE = '7391';

/** What the digits of a card look like with any grouping removed. */
export const bareDigits = (card: string): string => card.replace(/\D/g, '');

type Send = (path: string, init: RequestInit) => Promise<Response>;

/** Sends every form; resolves with each request's status, by form. */
export async function sendCardDataForms(send: Send): Promise<Record<string, number>> {
  const auth = headers(DIRECT);
  const { 'content-type': _json, ...bare } = auth;
  const C = FORM_CARDS;
  const code = FORM_CODE;
  const out: Record<string, number> = {};
  out.form = (
    await send('/v4/transactions', {
      method: 'POST',
      headers: { ...bare, 'content-type': 'application/x-www-form-urlencoded' },
      body: `amount=100&currency=USD&number=${C.form}&security_code=${code}&expiration_date=12%2F30`,
    })
  ).status;
  out.formGrouped = (
    await send('/v4/transactions', {
      method: 'POST',
      headers: { ...bare, 'content-type': 'application/x-www-form-urlencoded' },
      body: `payment_method%5Bnumber%5D=${C.formGrouped.replace(/ /g, '+')}&payment_method%5Bsecurity%5Fcode%5D=${code}`,
    })
  ).status;
  const boundary = 'xBOUNDARYx';
  const part = (name: string, value: string): string =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  out.multipart = (
    await send('/v4/transactions', {
      method: 'POST',
      headers: { ...bare, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: `${part('number', C.multipart)}${part('securityCode', code)}--${boundary}--\r\n`,
    })
  ).status;
  out.camel = (
    await send('/v4/transactions', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify(
        directPayment({ payment_method: { type: 'card', number: C.camel, expiration_date: '12/30', securityCode: code } }),
      ),
    })
  ).status;
  out.escaped = (
    await send('/v4/transactions', {
      method: 'POST',
      headers: auth,
      body: `{"amount": 100, "payment_method": {"number": "${C.escaped}", "security\\u005fcode": "${code}", "CVV": ${code}`,
    })
  ).status;
  out.cursor = (await send(`/v4/transactions?cursor=${C.cursor}&limit=5`, { headers: auth })).status;
  out.search = (await send(`/v4/buyers?search=${C.search}&cvc=${code}`, { headers: auth })).status;
  out.path = (await send(`/v4/transactions/${C.path}`, { headers: auth })).status;
  out.idempotencyKey = (
    await send('/v4/transactions', {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': `order-${C.idempotencyKey}` },
      body: JSON.stringify(directPayment()),
    })
  ).status;
  out.idempotencyReplay = (
    await send('/v4/transactions', {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': `order-${C.idempotencyKey}` },
      body: JSON.stringify(directPayment()),
    })
  ).status;
  out.accountHeader = (
    await send('/v4/transactions', { headers: { authorization: 'Bearer sk_test_wrong', 'x-merchant-account-id': C.accountHeader } })
  ).status;
  out.metadata = (
    await send('/v4/transactions', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify(directPayment({ metadata: { note: `card ${C.metadata}` } })),
    })
  ).status;
  return out;
}
