/**
 * Cursor pages (spec: Page envelope, Pagination rules). `limit` 1-100,
 * default 20; cursors are opaque base64url strings naming a direction, a keyset key and a
 * tag of the list that issued them (its name and what it pages: an account, a transaction,
 * the filters), so a cursor is valid only for the list and account that issued it; any other
 * is a 400 at `query`.
 */
import { createHash } from 'node:crypto';
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

/**
 * The list a cursor belongs to: `list` names the endpoint (`transactions`, `refunds`, ...),
 * `scope` what it pages (the account id; with the transaction id or the filters where the
 * list has them). Cursors issued under one `CursorScope` are refused under any other.
 */
export interface CursorScope {
  list: string;
  scope: string;
}

/** Tags already computed, by `list\nscope` (bounded: emptied when it reaches `TAGS_KEPT`). */
const tags = new Map<string, string>();
const TAGS_KEPT = 1_000;

/** A short tag of a cursor scope (not the scope itself: cursors stay opaque); each page needs one, so they are kept. */
function tagOf(s: CursorScope): string {
  const name = `${s.list}\n${s.scope}`;
  let tag = tags.get(name);
  if (tag === undefined) {
    tag = createHash('sha256').update(name).digest('base64url').slice(0, 16);
    if (tags.size >= TAGS_KEPT) tags.clear();
    tags.set(name, tag);
  }
  return tag;
}

const encode = (d: 'a' | 'b', k: number, tag: string): string => Buffer.from(JSON.stringify({ d, k, t: tag })).toString('base64url');

const invalidCursor = (message: string) =>
  badRequest('Invalid cursor', [{ type: 'value_error', pointer: '/cursor', message, location: 'query' }]);

/**
 * Turns `limit` and `cursor` into a keyset request for the list `scope`; 400 at `/cursor` for
 * a cursor not made by a list, or made by another list or for another account.
 */
export function pageRequest(query: PageQuery, scope: CursorScope): PageRequest {
  if (query.cursor === undefined) return { limit: query.limit };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const c = decoded as { d?: unknown; k?: unknown; t?: unknown } | undefined;
  if (
    !c ||
    typeof c !== 'object' ||
    (c.d !== 'a' && c.d !== 'b') ||
    typeof c.k !== 'number' ||
    !Number.isInteger(c.k) ||
    typeof c.t !== 'string'
  ) {
    throw invalidCursor('Not a cursor returned by this list');
  }
  if (c.t !== tagOf(scope)) {
    throw invalidCursor(
      'This cursor was returned by another list, for another account or other filters: use it only with the request that returned it',
    );
  }
  return { limit: query.limit, direction: c.d === 'a' ? 'after' : 'before', key: c.k };
}

export interface PageEnvelope<T> {
  items: T[];
  limit: number;
  next_cursor: string | null;
  previous_cursor: string | null;
}

/**
 * `JSON.stringify(pageEnvelope(page, limit, format, scope))` with each row's JSON text from
 * `formatJson` (e.g. kept per row): the same text, keys in the same order.
 */
export function pageEnvelopeJson<Row>(page: Page<Row>, limit: number, formatJson: (row: Row) => string, scope: CursorScope): string {
  const { next_cursor, previous_cursor } = pageEnvelope({ ...page, rows: [] }, limit, () => null, scope);
  return `{"items":[${page.rows.map(formatJson).join(',')}],"limit":${JSON.stringify(limit)},"next_cursor":${JSON.stringify(next_cursor)},"previous_cursor":${JSON.stringify(previous_cursor)}}`;
}

/** The spec's page envelope of a keyset page of the list `scope`, its rows formatted with `format`. */
export function pageEnvelope<Row, T>(page: Page<Row>, limit: number, format: (row: Row) => T, scope: CursorScope): PageEnvelope<T> {
  const tag = tagOf(scope);
  return {
    items: page.rows.map(format),
    limit,
    next_cursor: page.nextKey === null ? null : encode('a', page.nextKey, tag),
    previous_cursor: page.previousKey === null ? null : encode('b', page.previousKey, tag),
  };
}
