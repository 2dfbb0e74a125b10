/** The Buyer object of GET /v4/buyers (the borrowed API's shape). */
import { z } from '@hono/zod-openapi';

export const buyerSchema = z
  .object({
    type: z.literal('buyer'),
    id: z.uuid(),
    merchant_account_id: z.string(),
    display_name: z.string().nullable(),
    external_identifier: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Buyer');

export type BuyerResponse = z.infer<typeof buyerSchema>;
