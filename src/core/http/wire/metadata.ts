/**
 * metadata: free key-value pairs echoed back (sandbox limits, as common payment APIs): at
 * most 50 keys, keys 1 to 40 characters, values strings of at most 500 characters. It is
 * echoed exactly as sent, wherever it is stored and returned (records, lists, webhooks),
 * except a value holding a card number by shape, masked (`•••• 1111`) before the
 * transaction or subscription is stored. A key that looks like a security code (`cvc`,
 * `cid`, `csc`, `card_code`...) keeps its value in the record; only the request log leaves
 * it out.
 */
import { z } from '@hono/zod-openapi';
import { withoutCardNumbers } from '../../redaction/card-data.js';
import { isRecord } from './issues.js';

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
  .overwrite(withoutCardNumbers)
  .openapi('Metadata', { example: { order_ref: 'A-1001' } });
