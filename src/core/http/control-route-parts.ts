/**
 * What every /_sandbox route definition and handler shares: the JSON response helper, the
 * error responses, the `{id}` path parameter, the `account_id` query, the handler type, and
 * the 404 of an unknown account.
 */
import { z, type RouteConfig, type RouteHandler } from '@hono/zod-openapi';
import { notFound } from '../domain/errors.js';
import type { AccountDirectory, AccountIdentity } from '../auth/account.js';
import type { AppEnv } from './env.js';
import { errorSchema, lowerCaseUuid } from './schemas.js';

/** A JSON response of `schema` in a route's `responses`. */
export const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
});

/** The error responses of the control routes (the spec's envelope). */
export const errors = {
  400: json(errorSchema, 'Bad request'),
  404: json(errorSchema, 'Not found'),
  409: json(errorSchema, 'Illegal transition'),
};

/** `{id}` in a path. */
export const idParam = z.object({
  id: z
    .string()
    .overwrite(lowerCaseUuid)
    .openapi({ param: { name: 'id', in: 'path' } }),
});

/** `?account_id=` of the lists that may span every account. */
export const accountQuery = z.object({ account_id: z.string().optional() });

/** The handler of a control route, typed by its definition. */
export type ControlHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;

/** The account `id` names (404 when there is none), or undefined without an id. */
export function accountOr404(accounts: Pick<AccountDirectory, 'byId'>, id: string | undefined): AccountIdentity | undefined {
  if (id === undefined) return undefined;
  const account = accounts.byId(id);
  if (!account) throw notFound(`Merchant account ${id} not found`);
  return account;
}
