import { describe, expect, it } from 'vitest';
import {
  isPaymentLinkExpired,
  needsCustomerStep,
  PAYMENT_CHANNEL_CODES,
  PAYMENT_LINK_TTL_MS,
  PAYMENT_METHOD_GROUPS,
  paymentChannel,
  validateChannel,
} from '../../../src/features/payment-methods/payment-methods.js';

/** The catalogue of payment methods, written out here independently of the module. */
const EXPECTED_GROUPS: Record<string, { country: string | null; type: string; codes: string[]; currency: string | null }> = {
  international_cards: { country: null, type: 'card', codes: ['CARD'], currency: null },
  thai_qr: { country: 'TH', type: 'qr', codes: ['PROMPTPAY'], currency: 'THB' },
  thai_wallets: { country: 'TH', type: 'wallet', codes: ['TRUEMONEY', 'SHOPEEPAY', 'LINEPAY'], currency: 'THB' },
  thai_banking_apps: {
    country: 'TH',
    type: 'mobile_banking',
    codes: ['KPLUS', 'SCB_EASY', 'KRUNGTHAI_NEXT', 'BUALUANG_MBANKING', 'KRUNGSRI_KMA'],
    currency: 'THB',
  },
  brazil_instant: { country: 'BR', type: 'qr', codes: ['PIX'], currency: 'BRL' },
  chinese_wallets: { country: 'CN', type: 'wallet', codes: ['ALIPAY', 'WECHATPAY'], currency: 'CNY' },
};

describe('the catalogue', () => {
  it('has the documented groups, codes, countries, types and currencies, all Instant', () => {
    expect(PAYMENT_METHOD_GROUPS.map((g) => g.id)).toEqual(Object.keys(EXPECTED_GROUPS));
    for (const group of PAYMENT_METHOD_GROUPS) {
      const want = EXPECTED_GROUPS[group.id]!;
      expect(group.country).toBe(want.country);
      expect(group.type).toBe(want.type);
      expect(group.channels.map((c) => c.code)).toEqual(want.codes);
      for (const channel of group.channels) {
        expect(channel.type).toBe(want.type);
        expect(channel.country).toBe(want.country);
        expect(channel.processing_time).toBe('Instant');
        expect(channel.currencies).toEqual(want.currency === null ? 'any' : [want.currency]);
      }
    }
    expect(paymentChannel('CARD')!.schemes).toEqual(['Visa', 'Mastercard', 'American Express', 'JCB', 'UnionPay', 'Discover']);
    expect(new Set(PAYMENT_CHANNEL_CODES).size).toBe(PAYMENT_CHANNEL_CODES.length);
  });

  it("QR, wallet and banking-app channels need the customer's step; a card, an unknown or no code do not", () => {
    for (const code of PAYMENT_CHANNEL_CODES) expect(needsCustomerStep(code)).toBe(code !== 'CARD');
    expect(needsCustomerStep('NOPE')).toBe(false);
    expect(needsCustomerStep(null)).toBe(false);
    expect(needsCustomerStep(undefined)).toBe(false);
  });
});

describe('validateChannel', () => {
  for (const [id, want] of Object.entries(EXPECTED_GROUPS)) {
    describe(id, () => {
      const code = want.codes[0]!;
      it(`${code} with ${want.currency ?? 'USD, JPY and THB'} is valid`, () => {
        for (const currency of want.currency ? [want.currency] : ['USD', 'JPY', 'THB']) expect(validateChannel(code, currency)).toEqual([]);
      });
      if (want.currency) {
        it(`${code} with USD is a value_error on /currency naming ${want.currency}`, () => {
          expect(validateChannel(code, 'USD')).toEqual([
            {
              type: 'value_error',
              pointer: '/currency',
              message: expect.stringContaining(`takes ${want.currency}, not USD`),
              location: 'body',
            },
          ]);
        });
      } else {
        it(`${code} with something that is not an ISO 4217 code is a value_error`, () => {
          expect(validateChannel(code, 'XXX')[0]).toMatchObject({ type: 'value_error', pointer: '/currency' });
        });
      }
    });
  }

  it('an unknown code is an enum_error listing every valid code; codes are exact', () => {
    for (const code of ['NOPE', 'promptpay', '']) {
      const [detail, ...rest] = validateChannel(code, 'THB');
      expect(rest).toEqual([]);
      expect(detail).toMatchObject({ type: 'enum_error', pointer: '/payment_method/payment_channel_code', location: 'body' });
      for (const valid of PAYMENT_CHANNEL_CODES) expect(detail!.message).toContain(valid);
    }
  });

  it('pointers can be set for other bodies', () => {
    expect(validateChannel('PIX', 'THB', { code: '/pm/code', currency: '/plan/currency' })[0]!.pointer).toBe('/plan/currency');
    expect(validateChannel('X', 'THB', { code: '/pm/code', currency: '/plan/currency' })[0]!.pointer).toBe('/pm/code');
  });
});

describe('payment link expiry', () => {
  it('expires exactly 24 hours after creation', () => {
    expect(PAYMENT_LINK_TTL_MS).toBe(86_400_000);
    expect(isPaymentLinkExpired(1_000, 1_000 + 86_400_000 - 1)).toBe(false);
    expect(isPaymentLinkExpired(1_000, 1_000 + 86_400_000)).toBe(true);
  });
});
