/**
 * The secret scan of a logged text (`redaction/secrets.ts` `redactSecrets`) runs its whole
 * pattern only over a text holding what every secret holds (`Bearer`, `sk_test_`, `sk_live_`,
 * a JWT's `eyJ`, in any case); these pin that a text with a secret anywhere is still redacted,
 * and that a text the marker passes over is one the pattern leaves as it is.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SECRET_PATTERN, redactSecrets } from '../../../../src/core/redaction/secrets.js';
import { isSecurityCodeKey } from '../../../../src/core/redaction/card-data.js';
import { params } from '../../../support/fuzz.js';

const SECRETS = ['Bearer abc.def', 'bEaReR\ttoken', 'sk_test_abc', 'SK_LIVE_rk_x', 'eyJhbGciOi.eyJzdWIi.sig', 'EYJa.b.c'];

describe('the secret scan of logged text', () => {
  it('redacts a secret wherever it stands, in any case', () => {
    for (const secret of SECRETS) {
      for (const text of [secret, `{"note":"${secret}"}`, `a,${secret};b`, ...(/^bearer/i.test(secret) ? [] : [`%2C${secret}`])]) {
        expect(redactSecrets(text), text).toBe(text.replace(SECRET_PATTERN, (s) => redactSecrets(s)));
        expect(redactSecrets(text), text).not.toBe(text);
      }
    }
  });

  it('gives what the whole pattern gives, for any text', () => {
    const piece = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...SECRETS, 'sk_', 'bear', 'ey', 'J', '_test_', ' '));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const text = pieces.join('');
        const whole = text.replace(SECRET_PATTERN, (s) => redactSecrets(s));
        expect(redactSecrets(text)).toBe(whole);
      }),
      params,
    );
  });

  it('names security-code keys the same way on every call (short keys are remembered)', () => {
    for (let round = 0; round < 3; round++) {
      expect(
        ['cvv', 'CVC2', 'security_code', 'card[cvc]', 'securityCode', 'amount', 'number', 'card_verification_value'].map(isSecurityCodeKey),
      ).toEqual([true, true, true, true, true, false, false, true]);
    }
  });
});
