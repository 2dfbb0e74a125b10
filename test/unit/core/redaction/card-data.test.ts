/**
 * Card numbers recognised by their shape (domain/card-data.ts): 13 to 19 digits that pass
 * Luhn and begin with a card scheme's prefix at that scheme's length, not joined to a letter
 * or to other digits, never part of a UUID. The property tests feed the redactors random
 * merchant text mixed with real card numbers of every scheme in every separated form, and
 * show that only the card numbers change.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardNumberMask, maskCardNumbers, withoutCardNumbers } from '../../../../src/core/redaction/card-data.js';
import { redactText } from '../../../../src/core/http/redact.js';

const mask = (text: string): string => maskCardNumbers(text, cardNumberMask);

/** `body` completed with its Luhn check digit. */
function withCheckDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

/** Each scheme: its prefixes and the lengths it takes. */
const SCHEMES: { name: string; prefixes: string[]; lengths: number[] }[] = [
  { name: 'Visa', prefixes: ['4'], lengths: [13, 16, 19] },
  { name: 'Mastercard', prefixes: ['51', '53', '55', '2221', '2500', '2720'], lengths: [16] },
  { name: 'American Express', prefixes: ['34', '37'], lengths: [15] },
  { name: 'Discover', prefixes: ['6011', '644', '649', '65'], lengths: [16, 17, 18, 19] },
  { name: 'JCB', prefixes: ['3528', '3589'], lengths: [16, 17, 18, 19] },
  { name: 'Diners Club', prefixes: ['300', '305', '36', '38'], lengths: [14, 15, 16, 17, 18, 19] },
  { name: 'UnionPay', prefixes: ['62'], lengths: [16, 17, 18, 19] },
];

/** A Luhn-valid number of `length` digits starting with `prefix` (filled with `fill`). */
const cardOf = (prefix: string, length: number, fill = '1'): string => withCheckDigit(prefix + fill.repeat(length - prefix.length - 1));

/** Groups of four, the last one shorter. */
const grouped = (digits: string, sep: string): string => digits.match(/.{1,4}/g)!.join(sep);
const fullWidth = (digits: string): string => digits.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));

describe('maskCardNumbers recognises a card number by its shape', () => {
  it('masks every scheme at each of its lengths, and no scheme at another length', () => {
    for (const { name, prefixes, lengths } of SCHEMES) {
      for (const prefix of prefixes) {
        for (let length = 13; length <= 19; length++) {
          const card = cardOf(prefix, length);
          const expected = lengths.includes(length) ? `paid with ${cardNumberMask(card)}.` : `paid with ${card}.`;
          expect(mask(`paid with ${card}.`), `${name} ${prefix} at ${length}`).toBe(expected);
        }
      }
    }
  });

  it('leaves Luhn-valid digits without a scheme prefix alone (an invoice number of 16 digits)', () => {
    for (const prefix of ['1', '7', '8', '9', '0', '2220', '2721', '56', '33', '306', '6012', '643', '63']) {
      const invoice = cardOf(prefix, 16);
      expect(mask(`invoice ${invoice}`), invoice).toBe(`invoice ${invoice}`);
    }
  });

  it('leaves a card-shaped number joined to a letter or to other digits alone', () => {
    const card = '4111111111111111';
    for (const text of [`INV${card}`, `${card}A`, `ref-x${card}`, `9${card}`, `${card}0`, `${card}ß`, `é${card}`]) {
      expect(mask(text), text).toBe(text);
    }
  });

  it('never touches a UUID, even one whose digits hold a card number', () => {
    for (const uuid of [
      '2d00603c-7140-4664-9754-38cb262fec61',
      '41111111-1111-1111-1111-123456789012',
      '00000000-4111-1111-1111-111100000000',
      '2D00603C-7140-4664-9754-38CB262FEC61',
    ]) {
      expect(mask(uuid), uuid).toBe(uuid);
      expect(mask(`order ${uuid} paid`), uuid).toBe(`order ${uuid} paid`);
    }
  });

  it('finds the groups joined by spaces, dashes, dots, slashes, line breaks, form separators, in full-width digits too', () => {
    const card = '5555555555554444';
    for (const sep of [' ', '-', '.', '/', '\n', '\r\n', '+', '%20', '\u00a0']) {
      expect(mask(`card ${grouped(card, sep)} ok`), JSON.stringify(sep)).toBe('card •••• 4444 ok');
    }
    expect(mask(`card ${fullWidth(card)}`)).toBe('card •••• 4444');
    expect(mask(`card ${grouped(fullWidth(card), ' ')}`)).toBe('card •••• 4444');
    expect(mask('Amex 3782 822463 10005')).toBe('Amex •••• 0005');
    // A comma and a space, or three spaces, end the number: the groups are not one card.
    expect(mask('5555, 5555, 5555, 4444')).toBe('5555, 5555, 5555, 4444');
    expect(mask('5555   5555   5555   4444')).toBe('5555   5555   5555   4444');
  });

  it('finds the groups joined by underscores, commas or two spaces, and a number written digit by digit', () => {
    const card = '4242424242424242';
    for (const sep of ['_', ',', '  ']) {
      expect(mask(`card ${grouped(card, sep)} ok`), JSON.stringify(sep)).toBe('card •••• 4242 ok');
    }
    expect(mask(`card ${card.split('').join(' ')} ok`)).toBe('card •••• 4242 ok');
    expect(mask(`card ${card.split('').join('  ')} ok`)).toBe('card •••• 4242 ok');
    expect(mask(`card ${'378282246310005'.split('').join('-')}`)).toBe('card •••• 0005');
    expect(withoutCardNumbers({ note: '4242_4242_4242_4242' })).toEqual({ note: '•••• 4242' });
    expect(redactText('{"note":"4242,4242,4242,4242"}')).toBe('{"note":"•••• 4242"}');
    // More than five groups are one number only when each is one digit.
    expect(mask('42 42 42 42 42 42 42 42')).toBe('42 42 42 42 42 42 42 42');
    // Digits written one by one that are no card number stay as they are.
    expect(mask('1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6')).toBe('1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6');
  });

  it('keeps the exported helpers working for their callers (the logger keeps its own mask)', () => {
    expect(maskCardNumbers('4242 4242 4242 4242', (d) => `****${d.slice(-4)}`)).toBe('****4242');
    expect(withoutCardNumbers({ a: ['x 4242424242424242'], b: 1, c: null })).toEqual({ a: ['x •••• 4242'], b: 1, c: null });
    const plain = { a: 'nothing here', n: ['2024-01-15'] };
    expect(withoutCardNumbers(plain)).toBe(plain);
  });
});

// ---- Property: only card numbers change -------------------------------------------------

const digitString = (min: number, max: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** Text a merchant writes that holds no card number. */
const merchantText: fc.Arbitrary<string> = fc.oneof(
  fc.uuid().map((u) => `order_ref ${u}`),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.tuple(fc.integer({ min: 2000, max: 2099 }), digitString(1, 8)).map(([y, n]) => `ORD-${y}-${n}`),
  fc
    .tuple(fc.integer({ min: 1, max: 999 }), digitString(3, 4), digitString(3, 4), digitString(3, 4))
    .map(([cc, a, b, c]) => `+${cc} ${a} ${b} ${c}`),
  fc.tuple(fc.integer({ min: 1, max: 99 }), digitString(10, 12)).map(([cc, rest]) => `+${cc}${rest}`),
  fc.tuple(fc.integer({ min: 1, max: 9 }), digitString(11, 13)).map(([cc, rest]) => `tel: +${cc} ${rest}`),
  fc
    .date({ min: new Date('1990-01-01'), max: new Date('2090-12-31'), noInvalidDate: true })
    .chain((d) =>
      fc.constantFrom(
        d.toISOString().slice(0, 10),
        `${pad(d.getUTCDate(), 2)}/${pad(d.getUTCMonth() + 1, 2)}/${d.getUTCFullYear()}`,
        `${pad(d.getUTCDate(), 2)}.${pad(d.getUTCMonth() + 1, 2)}.${d.getUTCFullYear()}`,
        d.toISOString(),
      ),
    ),
  fc
    .tuple(
      fc.constantFrom('DE', 'GB', 'FR', 'NL', 'TH', 'ES'),
      digitString(2, 2),
      fc.array(digitString(4, 4), { minLength: 3, maxLength: 6 }),
      digitString(0, 3),
      fc.constantFrom(' ', ''),
    )
    .map(([cc, check, groups, tail, sep]) => [`${cc}${check}`, ...groups, ...(tail ? [tail] : [])].join(sep)),
  fc.tuple(fc.constantFrom('0', '1', '7', '8', '9'), digitString(14, 14)).map(([first, rest]) => `invoice ${withCheckDigit(first + rest)}`),
  fc.tuple(fc.constantFrom('INV', 'A', 'No'), digitString(14, 14)).map(([letters, rest]) => `${letters}${withCheckDigit(`4${rest}`)}`),
  fc.tuple(digitString(14, 14), fc.constantFrom('A', 'x', 'Z9')).map(([rest, letters]) => `${withCheckDigit(`4${rest}`)}${letters}`),
  fc.string({ maxLength: 20 }).filter((s) => !/[0-9\uff10-\uff19]/.test(s)),
  fc.integer({ min: 0, max: 999_999_999_999 }).map((n) => `amount ${n}`),
);

/** A real card number of any scheme, at one of its lengths, in any separated form; and its mask. */
const cardText: fc.Arbitrary<{ text: string; masked: string }> = fc
  .tuple(
    fc.constantFrom(...SCHEMES),
    fc.nat(),
    fc.nat(),
    digitString(19, 19),
    fc.constantFrom('', ' ', '-', '.', '/', '\n', '\r\n', '+', '%20', '_', ',', '  ', 'each digit'),
    fc.boolean(),
  )
  .map(([scheme, p, l, fill, sep, wide]) => {
    const prefix = scheme.prefixes[p % scheme.prefixes.length]!;
    const length = scheme.lengths[l % scheme.lengths.length]!;
    const card = withCheckDigit(prefix + fill.slice(0, length - prefix.length - 1));
    const digits = wide ? fullWidth(card) : card;
    const text = sep === '' ? digits : sep === 'each digit' ? [...digits].join(' ') : grouped(digits, sep);
    return { text, masked: cardNumberMask(card) };
  });

/** Merchant text and card numbers, each piece with what it should become, joined by `, `. */
const mixed = fc
  .array(
    fc.oneof(
      merchantText.map((text) => ({ text, masked: text })),
      cardText,
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((pieces) => ({
    text: pieces.map((p) => p.text).join(', '),
    masked: pieces.map((p) => p.masked).join(', '),
  }));

describe('the redactors change card numbers and nothing else', () => {
  it('leaves random merchant text (UUIDs, order and phone numbers, dates, IBAN-like references, invoice numbers) exactly as it is', () => {
    fc.assert(
      fc.property(merchantText, (text) => {
        expect(mask(text)).toBe(text);
        expect(redactText(text)).toBe(text);
        expect(withoutCardNumbers({ note: text })).toEqual({ note: text });
      }),
      { numRuns: 2000 },
    );
  });

  it('masks every card number of every scheme, in every separated form, among merchant text', () => {
    fc.assert(
      fc.property(mixed, ({ text, masked }) => {
        expect(mask(text)).toBe(masked);
        expect(redactText(text)).toBe(masked);
        expect(withoutCardNumbers([text])).toEqual([masked]);
      }),
      { numRuns: 2000 },
    );
  });
});
