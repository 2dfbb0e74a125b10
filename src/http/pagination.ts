/**
 * Cursor pages (spec: Page envelope, Pagination rules; contract: Lists). `limit` 1-100,
 * default 20; cursors are opaque base64url strings naming a direction and a keyset key.
 */
import { z } from '@hono/zod-openapi';
import { badRequest } from '../domain/errors.js';
import type { Page, PageRequest } from '../domain/ports.js';

export const pageQuerySchema = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a whole number from 1 to 100' })
    .int({ message: 'limit must be a whole number from 1 to 100' })
    .min(1, { message: 'limit must be at least 1' })
    .max(100, { message: 'limit must be at most 100' })
    .default(20)
    .openapi({ example: 20, description: 'Page size, 1 to 100 (default 20).' }),
  cursor: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .openapi({ example: 'eyJkIjoiYSIsImsiOjQyfQ', description: 'A next_cursor or previous_cursor of an earlier page.' }),
});

export type PageQuery = z.infer<typeof pageQuerySchema>;

/** The page envelope schema for items of `item`. */
export const pageSchema = <T extends z.ZodTypeAny>(item: T, name: string) =>
  z
    .object({
      items: z.array(item),
      limit: z.number().int(),
      next_cursor: z.string().nullable(),
      previous_cursor: z.string().nullable(),
    })
    .openapi(name);

const encode = (d: 'a' | 'b', k: number): string => Buffer.from(JSON.stringify({ d, k })).toString('base64url');

/** Turns `limit` and `cursor` into a keyset request; 400 at `/cursor` for a cursor not made here. */
export function pageRequest(query: PageQuery): PageRequest {
  if (query.cursor === undefined) return { limit: query.limit };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const c = decoded as { d?: unknown; k?: unknown } | undefined;
  if (!c || typeof c !== 'object' || (c.d !== 'a' && c.d !== 'b') || typeof c.k !== 'number' || !Number.isInteger(c.k)) {
    throw badRequest('Invalid cursor', [
      { type: 'value_error', pointer: '/cursor', message: 'Not a cursor returned by this list', location: 'query' },
    ]);
  }
  return { limit: query.limit, direction: c.d === 'a' ? 'after' : 'before', key: c.k };
}

export interface PageEnvelope<T> {
  items: T[];
  limit: number;
  next_cursor: string | null;
  previous_cursor: string | null;
}

/** The spec's page envelope of a keyset page, its rows formatted with `format`. */
export function pageEnvelope<Row, T>(page: Page<Row>, limit: number, format: (row: Row) => T): PageEnvelope<T> {
  return {
    items: page.rows.map(format),
    limit,
    next_cursor: page.nextKey === null ? null : encode('a', page.nextKey),
    previous_cursor: page.previousKey === null ? null : encode('b', page.previousKey),
  };
}
