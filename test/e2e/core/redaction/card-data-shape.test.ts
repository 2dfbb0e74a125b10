/**
 * Card data recognised by its shape, over a real socket: merchant references that merely
 * look long (a UUID order_ref, a 16-digit invoice number that passes Luhn without a scheme
 * prefix, one joined to letters) are echoed exactly as sent, and every request-log path keeps
 * its ids whole; a card number written in any free-text field (description, customer name
 * and e-mail, external_identifier, metadata, a refund's reason, a card holder's name, a
 * subscription's fields) is stored masked and leaves masked: in the answer, the panel's
 * records, the webhook (`merchant_transaction_id`), the request log and the snapshot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src/server.js';
import { DIRECT, directPayment, headers, startReceiver, type Receiver } from '../../../support/app.js';
import { directSubscription } from '../../../support/subscriptions.js';

let server: RunningServer;
let receiver: Receiver;
beforeAll(async () => {
  [server, receiver] = await Promise.all([startServer({ port: 0, host: '127.0.0.1', ticker: false }), startReceiver()]);
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

interface Json {
  [key: string]: unknown;
}
const call = async (path: string, init: RequestInit = {}): Promise<{ status: number; json: Json; text: string }> => {
  const res = await fetch(`${server.url}${path}`, init);
  const text = await res.text();
  return { status: res.status, json: (text === '' ? {} : JSON.parse(text)) as Json, text };
};
const post = (path: string, payload: unknown) =>
  call(path, { method: 'POST', headers: headers(DIRECT, { 'x-forwarded-for': '203.0.113.7' }), body: JSON.stringify(payload) });
const digitsOf = (card: string): string => card.replace(/\D/g, '');

describe('merchant references that are not card numbers', () => {
  it('metadata holding a UUID order_ref and invoice numbers is echoed exactly as sent, and stored so', async () => {
    const metadata = {
      order_ref: '2d00603c-7140-4664-9754-38cb262fec61',
      invoice: '1234567812345670',
      invoice_ref: 'INV4111111111111111',
      phone: '+49 1512 3456789',
    };
    const created = await post('/v4/transactions', directPayment({ metadata, external_identifier: metadata.order_ref }));
    expect(created.status).toBe(201);
    expect(created.json.metadata).toEqual(metadata);
    expect(created.json.external_identifier).toBe(metadata.order_ref);
    const read = await call(`/v4/transactions/${String(created.json.id)}`, { headers: headers(DIRECT) });
    expect(read.json.metadata).toEqual(metadata);
  });

  it('a request-log path keeps its ids whole: ?path= finds every call to a transaction', async () => {
    const ids = ['2d00603c-7140-4664-9754-38cb262fec61', '41111111-1111-1111-1111-111111111111'];
    const created = await post('/v4/transactions', directPayment());
    ids.push(String(created.json.id));
    for (const id of ids) {
      const path = `/v4/transactions/${id}/refunds`;
      await call(path, { headers: headers(DIRECT) });
      const found = await call(`/_sandbox/requests?account_id=${DIRECT.account_id}&path=${encodeURIComponent(path)}`);
      expect(found.status).toBe(200);
      expect(
        (found.json.items as { path: string }[]).map((i) => i.path),
        id,
      ).toEqual([path]);
    }
  });
});

describe('a card number in free text', () => {
  it('is stored and sent masked: answer, panel, webhook, request log, refund and snapshot', async () => {
    const cards = {
      description: '4012 8888 8888 1881',
      name: '5105-1051-0510-5100',
      email: '6011000990139424',
      reference: '3566 0020 2036 0505',
      note: '3782 822463 10005',
      reason: '2223.0031.2200.3222',
    };
    const created = await post(
      '/v4/transactions',
      directPayment({
        description: `Paid with ${cards.description}`,
        customer: { name: `Card ${cards.name}`, email: `${cards.email}@example.com` },
        external_identifier: cards.reference,
        metadata: { note: `card ${cards.note}`, order_ref: 'A-1001' },
        notification_url: receiver.url,
      }),
    );
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      description: 'Paid with •••• 1881',
      customer: { name: 'Card •••• 5100', email: '•••• 9424@example.com' },
      external_identifier: '•••• 0505',
      metadata: { note: 'card •••• 0005', order_ref: 'A-1001' },
    });
    const id = String(created.json.id);
    expect((await call(`/_sandbox/transactions/${id}/settle`, { method: 'POST' })).status).toBe(200);
    const hook = await receiver.waitForMatch((h) => h.raw.includes(id) || h.raw.includes('•••• 0505'));
    expect(hook.raw).toContain('"merchant_transaction_id":"•••• 0505"');
    const refund = await post(`/v4/transactions/${id}/refunds`, { amount: 100, reason: `card ${cards.reason}` });
    expect(refund.status).toBe(201);
    expect(refund.json.reason).toBe('card •••• 3222');

    const seen = [
      created.text,
      hook.raw,
      refund.text,
      (await call(`/v4/transactions/${id}`, { headers: headers(DIRECT) })).text,
      (await call(`/_sandbox/transactions/${id}`)).text,
      (await call(`/_sandbox/transactions?account_id=${DIRECT.account_id}`)).text,
      (await call(`/_sandbox/requests?account_id=${DIRECT.account_id}&limit=100`)).text,
    ].join('\n');
    const snapshot = Buffer.from(await (await fetch(`${server.url}/_sandbox/snapshot`)).arrayBuffer()).toString('latin1');
    expect(snapshot).toContain('A-1001');
    for (const [field, card] of Object.entries(cards)) {
      expect(seen, field).not.toContain(card);
      expect(seen, field).not.toContain(digitsOf(card));
      expect(snapshot, field).not.toContain(digitsOf(card));
      expect(snapshot, field).not.toContain(card);
    }
  });

  it('is masked in every free-text field of a subscription and of its charges', async () => {
    const created = await post(
      '/v4/subscriptions',
      directSubscription({
        external_identifier: 'sub 4000 0566 5566 5556',
        description: 'card 6011 1111 1111 1117',
        customer: { email_address: 'jane@example.com', display_name: 'Jane 3530111333300000', first_name: 'Jane' },
        metadata: { note: '5555 5555 5555 4444' },
        payment_method: {
          type: 'card',
          number: '4111111111111111',
          expiration_date: '12/30',
          security_code: '123',
          holder_name: 'Jane 4242 4242 4242 4242',
          webhooks_url: 'http://127.0.0.1:9/hooks',
        },
      }),
    );
    expect(created.status, created.text).toBe(201);
    const sub = await call(`/v4/subscriptions/${String(created.json.id)}`, { headers: headers(DIRECT) });
    const txs = await call(`/_sandbox/transactions?account_id=${DIRECT.account_id}&limit=100`);
    const snapshot = Buffer.from(await (await fetch(`${server.url}/_sandbox/snapshot`)).arrayBuffer()).toString('latin1');
    const seen = `${created.text}\n${sub.text}\n${txs.text}\n${snapshot}`;
    expect(sub.json.external_identifier).toBe('sub •••• 5556');
    expect(txs.text).toContain('Subscription sub •••• 5556'); // its first charge's description
    for (const card of ['4000056655665556', '6011111111111117', '3530111333300000', '5555555555554444', '4242424242424242'])
      expect(seen, card).not.toContain(card);
    for (const card of ['4000 0566 5566 5556', '6011 1111 1111 1117', '5555 5555 5555 4444', '4242 4242 4242 4242'])
      expect(seen, card).not.toContain(card);
  });
});
