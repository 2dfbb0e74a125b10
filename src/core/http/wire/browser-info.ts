/**
 * browser_info for anti-fraud checks (spec: Sub-objects), sent by direct-mode accounts with
 * transactions and subscriptions. All fields optional; `time_zone_offset` is in minutes
 * (-840 to 840, as JavaScript's getTimezoneOffset), `color_depth` one of the depths browsers
 * report.
 */
import { z } from '@hono/zod-openapi';
import { text } from '../schemas.js';

/** A BCP 47-style language tag: primary subtag of 2–3 letters, then subtags of 1–8 alphanumerics. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;
const COLOR_DEPTHS = [1, 4, 8, 15, 16, 24, 30, 32, 48] as const;

export const browserInfoSchema = z
  .object({
    javascript_enabled: z.boolean().optional(),
    java_enabled: z.boolean().optional(),
    language: z.string().max(35).regex(LANGUAGE_TAG, 'Must be a language tag such as en or en-US').optional().openapi({ example: 'en-US' }),
    color_depth: z
      .number()
      .int()
      .refine((v) => !Number.isInteger(v) || (COLOR_DEPTHS as readonly number[]).includes(v), `Must be one of ${COLOR_DEPTHS.join(', ')}`)
      .optional()
      .openapi({ enum: [...COLOR_DEPTHS] }),
    screen_height: z.number().int().min(1).max(100_000).optional(),
    screen_width: z.number().int().min(1).max(100_000).optional(),
    time_zone_offset: z.number().int().min(-840).max(840).optional(),
    user_agent: text(2048).optional(),
    accept_header: text(2048).optional(),
    user_device: z.enum(['desktop', 'mobile']).optional(),
  })
  .openapi('BrowserInfo');
