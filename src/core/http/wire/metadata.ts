/**
 * metadata: free key-value pairs echoed back (sandbox limits, as common payment APIs): at
 * most 50 keys, keys 1 to 40 characters, values strings of at most 500 characters. It is
 * echoed exactly as sent, except card data, never kept in it: a card number in a value is
 * masked (`•••• 1111`) and the value of a security-code key (`cvv`, `securityCode`...)
 * becomes `[redacted]`, before the transaction or subscription is stored.
 */
import { z } from '@hono/zod-openapi';
import { isSecurityCodeKey, withoutCardNumbers } from '../../redaction/card-data.js';
import { isRecord } from './issues.js';

/** `metadata` without card data (see the module comment); the same object when it holds none. */
function withoutCardData(metadata: Record<string, string>): Record<string, string> {
  let out: Record<string, string> | undefined;
  for (const [key, value] of Object.entries(metadata)) {
    const safe = isSecurityCodeKey(key) ? '[redacted]' : withoutCardNumbers(value);
    if (safe !== value) (out ??= { ...metadata })[key] = safe;
  }
  return out ?? metadata;
}

export const metadataSchema = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .superRefine(
    (value, ctx) => {
      if (Object.keys(value).length > 50) {
        ctx.addIssue({
          code: 'too_big',
          origin: 'object',
          maximum: 50,
          inclusive: true,
          input: value,
          message: 'metadata may have at most 50 keys',
        });
      }
    },
    { when: (payload) => isRecord(payload.value) },
  )
  .overwrite(withoutCardData)
  .openapi('Metadata', { example: { order_ref: 'A-1001' } });
