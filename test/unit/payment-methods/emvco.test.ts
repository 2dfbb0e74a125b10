import { describe, expect, it } from 'vitest';
import { qrPayloadFor, SANDBOX_PIX_KEY, SANDBOX_PROMPTPAY_PROXY } from '../../../src/features/payment-methods/emvco/payment-payload.js';
import { pixPayload, pixTxid } from '../../../src/features/payment-methods/emvco/pix.js';
import { promptPayPayload } from '../../../src/features/payment-methods/emvco/promptpay.js';
import { crc16, dataObject, emvText } from '../../../src/features/payment-methods/emvco/tlv.js';
import { crcCcittFalse, decodePayload, tlvMap } from '../../support/emvco-decoder.js';

/** Published payloads with their CRCs, from the reference implementations' own tests. */
const KNOWN = {
  // dtinth/promptpay-qr index.test.js: tax id 0123456789012, static.
  promptPayTaxId: '00020101021129370016A000000677010111021301234567890125802TH530376463040CBD',
  // dtinth/promptpay-qr index.test.js: phone 000-000-0000, amount 4.22, dynamic.
  promptPayAmount: '00020101021229370016A000000677010111011300660000000005802TH530376454044.226304E469',
  // Banco Central do Brasil, BR Code manual example (random key, static, txid ***).
  pix: '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D',
};

describe('the test decoder on published payloads', () => {
  it('recomputes the published CRCs (and the CRC-16/CCITT-FALSE check value of "123456789", 29B1)', () => {
    expect(crcCcittFalse(new TextEncoder().encode('123456789')).toString(16).toUpperCase()).toBe('29B1');
    for (const payload of Object.values(KNOWN)) {
      const { crc } = decodePayload(payload);
      expect(crc.computed).toBe(crc.stated);
    }
  });

  it('reads the fields of the PromptPay and Pix examples', () => {
    const promptPay = decodePayload(KNOWN.promptPayAmount).fields;
    expect(promptPay.get('01')).toBe('12');
    expect(tlvMap(promptPay.get('29')!).get('00')).toBe('A000000677010111');
    expect(tlvMap(promptPay.get('29')!).get('01')).toBe('0066000000000');
    expect(promptPay.get('54')).toBe('4.22');
    const pix = decodePayload(KNOWN.pix).fields;
    expect(tlvMap(pix.get('26')!).get('01')).toBe('123e4567-e12b-12d1-a456-426655440000');
    expect(tlvMap(pix.get('62')!).get('05')).toBe('***');
  });

  it("the encoder's CRC agrees on the published payloads", () => {
    for (const payload of Object.values(KNOWN)) expect(crc16(payload.slice(0, -4))).toBe(payload.slice(-4));
  });

  it('notices a changed character', () => {
    const tampered = KNOWN.pix.replace('BRASILIA', 'BRASILIO');
    const { crc } = decodePayload(tampered);
    expect(crc.computed).not.toBe(crc.stated);
  });
});

describe('PromptPay payload (Thai QR standard, credit transfer)', () => {
  it('a dynamic payload: every field, and a valid CRC', () => {
    const payload = promptPayPayload({ proxy: { kind: 'mobile', value: '081-234-5678' }, amount: 35050 });
    const { fields, crc } = decodePayload(payload);
    expect([...fields.keys()]).toEqual(['00', '01', '29', '53', '54', '58', '63']);
    expect(fields.get('00')).toBe('01');
    expect(fields.get('01')).toBe('12');
    const account = tlvMap(fields.get('29')!);
    expect([...account.entries()]).toEqual([
      ['00', 'A000000677010111'],
      ['01', '0066812345678'],
    ]);
    expect(fields.get('53')).toBe('764');
    expect(fields.get('54')).toBe('350.50');
    expect(fields.get('58')).toBe('TH');
    expect(crc.computed).toBe(crc.stated);
  });

  it('tax id and e-wallet id go in sub-objects 02 and 03; no amount is static (11)', () => {
    const taxId = decodePayload(promptPayPayload({ proxy: { kind: 'tax_id', value: '0123456789012' } }));
    expect(taxId.fields.get('01')).toBe('11');
    expect(taxId.fields.has('54')).toBe(false);
    expect(tlvMap(taxId.fields.get('29')!).get('02')).toBe('0123456789012');
    const wallet = decodePayload(promptPayPayload({ proxy: { kind: 'ewallet', value: '123456789012345' }, amount: 100 }));
    expect(tlvMap(wallet.fields.get('29')!).get('03')).toBe('123456789012345');
    expect(wallet.fields.get('54')).toBe('1.00');
    expect(wallet.crc.computed).toBe(wallet.crc.stated);
  });

  it('refuses malformed proxies and amounts', () => {
    expect(() => promptPayPayload({ proxy: { kind: 'mobile', value: '12345' } })).toThrow(RangeError);
    expect(() => promptPayPayload({ proxy: { kind: 'tax_id', value: '123' } })).toThrow(RangeError);
    expect(() => promptPayPayload({ proxy: { kind: 'ewallet', value: 'abc' } })).toThrow(RangeError);
    expect(() => promptPayPayload({ proxy: SANDBOX_PROMPTPAY_PROXY, amount: 0 })).toThrow(RangeError);
    expect(() => promptPayPayload({ proxy: SANDBOX_PROMPTPAY_PROXY, amount: 1.5 })).toThrow(RangeError);
  });
});

describe('Pix payload (BR Code)', () => {
  it('a dynamic payload: every field, and a valid CRC', () => {
    const payload = pixPayload({
      key: 'pix@example.test',
      merchantName: 'Padaria São João Ltda. e Filhos',
      merchantCity: 'São Paulo',
      amount: 12345,
      txid: 'a1b2-c3d4',
    });
    const { fields, crc } = decodePayload(payload);
    expect([...fields.keys()]).toEqual(['00', '01', '26', '52', '53', '54', '58', '59', '60', '62', '63']);
    expect(fields.get('01')).toBe('12');
    expect([...tlvMap(fields.get('26')!).entries()]).toEqual([
      ['00', 'br.gov.bcb.pix'],
      ['01', 'pix@example.test'],
    ]);
    expect(fields.get('52')).toBe('0000');
    expect(fields.get('53')).toBe('986');
    expect(fields.get('54')).toBe('123.45');
    expect(fields.get('58')).toBe('BR');
    expect(fields.get('59')).toBe('Padaria Sao Joao Ltda. e');
    expect(fields.get('59')!.length).toBeLessThanOrEqual(25);
    expect(fields.get('60')).toBe('Sao Paulo');
    expect([...tlvMap(fields.get('62')!).entries()]).toEqual([['05', 'a1b2c3d4']]);
    expect(crc.computed).toBe(crc.stated);
  });

  it('without amount and txid: static (11), txid ***', () => {
    const { fields, crc } = decodePayload(pixPayload({ key: 'k', merchantName: 'M', merchantCity: 'C' }));
    expect(fields.get('01')).toBe('11');
    expect(fields.has('54')).toBe(false);
    expect(tlvMap(fields.get('62')!).get('05')).toBe('***');
    expect(crc.computed).toBe(crc.stated);
  });

  it('txid keeps letters and digits, at most 25', () => {
    expect(pixTxid('7d3c0e6a-1f2b-4c5d-8e9f-0a1b2c3d4e5f')).toBe('7d3c0e6a1f2b4c5d8e9f0a1b2');
    expect(pixTxid('---')).toBe('***');
  });

  it('refuses an empty key, name or city', () => {
    expect(() => pixPayload({ key: ' ', merchantName: 'M', merchantCity: 'C' })).toThrow(RangeError);
    expect(() => pixPayload({ key: 'k', merchantName: 'ร้าน', merchantCity: 'C' })).toThrow(RangeError);
    expect(() => pixPayload({ key: 'k', merchantName: 'M', merchantCity: '' })).toThrow(RangeError);
  });
});

describe('qrPayloadFor (a sandbox payment)', () => {
  const id = '7d3c0e6a-1f2b-4c5d-8e9f-0a1b2c3d4e5f';
  it('PROMPTPAY in THB: the sandbox tax id and the amount', () => {
    const { fields, crc } = decodePayload(
      qrPayloadFor({ id, amount: 35000, currency: 'THB', channelCode: 'PROMPTPAY', merchantName: 'checkout' })!,
    );
    expect(tlvMap(fields.get('29')!).get('02')).toBe(SANDBOX_PROMPTPAY_PROXY.value);
    expect(fields.get('54')).toBe('350.00');
    expect(crc.computed).toBe(crc.stated);
  });
  it('PIX in BRL: the sandbox key, the merchant name, the transaction id as txid', () => {
    const { fields } = decodePayload(qrPayloadFor({ id, amount: 4990, currency: 'BRL', channelCode: 'PIX', merchantName: 'ร้านค้า' })!);
    expect(tlvMap(fields.get('26')!).get('01')).toBe(SANDBOX_PIX_KEY);
    expect(fields.get('59')).toBe('payment-sandbox');
    expect(tlvMap(fields.get('62')!).get('05')).toBe('7d3c0e6a1f2b4c5d8e9f0a1b2');
    expect(fields.get('54')).toBe('49.90');
  });
  it('null for other channels or a currency the channel does not take; the same payload each time', () => {
    expect(qrPayloadFor({ id, amount: 1, currency: 'USD', channelCode: 'PROMPTPAY', merchantName: 'm' })).toBeNull();
    expect(qrPayloadFor({ id, amount: 1, currency: 'THB', channelCode: 'TRUEMONEY', merchantName: 'm' })).toBeNull();
    const a = qrPayloadFor({ id, amount: 1, currency: 'BRL', channelCode: 'PIX', merchantName: 'm' });
    expect(qrPayloadFor({ id, amount: 1, currency: 'BRL', channelCode: 'PIX', merchantName: 'm' })).toBe(a);
  });
});

describe('TLV primitives', () => {
  it('data objects carry two-digit lengths and refuse 0 or 100+ characters', () => {
    expect(dataObject('58', 'TH')).toBe('5802TH');
    expect(() => dataObject('5', 'x')).toThrow(RangeError);
    expect(() => dataObject('62', '')).toThrow(RangeError);
    expect(() => dataObject('62', 'x'.repeat(100))).toThrow(RangeError);
  });
  it('emvText drops accents and non-ASCII', () => {
    expect(emvText('  Açaí & Café  ', 25)).toBe('Acai & Cafe');
  });
});
