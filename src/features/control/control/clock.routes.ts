/** Route definitions of the sandbox clock: read it, move it forward. */
import { createRoute, z } from '@hono/zod-openapi';
import { controlOperation } from '../../../core/http/openapi/document.js';
import { errors, json } from '../../../core/http/control-route-parts.js';
import { clockAdvancedSchema, clockSchema } from './clock.schemas.js';

/** The longest advance (about 10 years), for the control API and a fixture's `then`. */
export const MAX_ADVANCE_SECONDS = 10 * 366 * 24 * 60 * 60;
const MAX_ADVANCE_MONTHS = 120;

/** `{ seconds }` or `{ months }` (calendar months on the sandbox clock, UTC, clamped to the month's end). */
export const clockAdvanceSchema = z
  .object({
    seconds: z.number().positive().max(MAX_ADVANCE_SECONDS).optional().openapi({ description: 'Seconds to move forward.' }),
    months: z
      .number()
      .int()
      .min(1)
      .max(MAX_ADVANCE_MONTHS)
      .optional()
      .openapi({ description: 'Calendar months to move forward: the same day and time n months later (Jan 31 + 1 month = Feb 28).' }),
    wait_for_webhooks: z.boolean().default(true).openapi({
      description:
        "Default true: answer once every webhook the advance queued has had its attempt (acknowledged, refused or timed out; retries that fall due later wait for a later advance, and so do the webhooks of a transaction or subscription held behind such a retry, as each goes one at a time in order), so a test can check its handler right after the call. false: answer as soon as the clock has moved and its steps are saved, never waiting for a webhook's round trip (not one already under way, nor a retry falling due in the window); the webhooks follow.",
    }),
  })
  .refine((body) => (body.seconds === undefined) !== (body.months === undefined), { message: 'Give either seconds or months' })
  .openapi('ClockAdvance');

export const get = createRoute({
  method: 'get',
  path: '/clock',
  ...controlOperation,
  operationId: 'getClock',
  summary: 'The sandbox clock',
  responses: { 200: json(clockSchema) },
});

export const advance = createRoute({
  method: 'post',
  path: '/clock/advance',
  ...controlOperation,
  operationId: 'advanceClock',
  summary: 'Move the clock forward by seconds or calendar months, running all that falls due, in time order',
  description:
    "No clock passes 9999-12-31T23:59:59Z: an advance whose end would take the sandbox clock or any account's clock past it is 400 and moves nothing. " +
    'An advance estimated at more than 100,000 steps is 400 before anything moves (`moved_seconds`: 0); one that reaches the limit part-way stops there, ' +
    'keeps what ran and answers 400 with `now`, `offset_seconds`, `moved_seconds`, `remaining_seconds` and `steps` in the error envelope.',
  request: { body: { required: true, content: { 'application/json': { schema: clockAdvanceSchema } } } },
  responses: { 200: json(clockAdvancedSchema), 400: errors[400] },
});

const accountParam = z.object({
  account_id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'account_id', in: 'path' }, example: 'acc_demo_direct' }),
});

export const getAccount = createRoute({
  method: 'get',
  path: '/accounts/{account_id}/clock',
  ...controlOperation,
  operationId: 'getAccountClock',
  summary: "An account's own clock: the sandbox clock plus the account's own offset",
  description:
    "`offset_seconds` is how far the account's clock is ahead of real time: the sandbox clock's offset plus what the account's own advances added.",
  request: { params: accountParam },
  responses: { 200: json(clockSchema), 404: errors[404] },
});

export const advanceAccount = createRoute({
  method: 'post',
  path: '/accounts/{account_id}/clock/advance',
  ...controlOperation,
  operationId: 'advanceAccountClock',
  summary: "Move one account's clock forward, running that account's due work alone, in time order",
  description:
    "The body and answer of `POST /_sandbox/clock/advance`, for one account: its renewals, retries of its webhooks, its link and idempotency-key expiries and its scenario steps fall due on its own clock. Every other account's clock and the sandbox clock stay where they are. `POST /_sandbox/clock/advance` still moves every account's clock.",
  request: {
    params: accountParam,
    body: { required: true, content: { 'application/json': { schema: clockAdvanceSchema } } },
  },
  responses: { 200: json(clockAdvancedSchema), 400: errors[400], 404: errors[404] },
});

export type GetRoute = typeof get;
export type AdvanceRoute = typeof advance;
export type GetAccountRoute = typeof getAccount;
export type AdvanceAccountRoute = typeof advanceAccount;
