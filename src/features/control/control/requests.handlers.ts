/** Handler of the API request log: one account's requests or all, filtered, in keyset pages. */
import type { z } from '@hono/zod-openapi';
import type { AccountDirectory } from '../../../core/auth/account.js';
import { pageEnvelope, pageRequest } from '../../../core/http/pagination.js';
import type { RequestLogFilter, RequestLogRepo } from '../../../core/http/ports.js';
import { accountOr404, type ControlHandler } from '../../../core/http/control-route-parts.js';
import { requestLogEntry } from '../views.js';
import type { ListRoute, requestFilterQuery } from './requests.routes.js';

/** The store's filter of a request-log query, or undefined when it filters on nothing but the account. */
export function requestLogFilter(accountId: string | undefined, query: z.infer<typeof requestFilterQuery>): RequestLogFilter | undefined {
  if (query.method === undefined && query.path === undefined && query.path_prefix === undefined && query.status === undefined)
    return undefined;
  const status =
    query.status === undefined
      ? undefined
      : /x/i.test(query.status)
        ? { min: Number(query.status[0]) * 100, max: Number(query.status[0]) * 100 + 99 }
        : { min: Number(query.status), max: Number(query.status) };
  return { accountId, method: query.method?.toUpperCase(), path: query.path, pathPrefix: query.path_prefix, status };
}

/** What the request-log route uses: the log's read side only. */
export interface RequestLogControlDeps {
  accounts: Pick<AccountDirectory, 'byId'>;
  requestLog: Pick<RequestLogRepo, 'page' | 'pageAll' | 'find'>;
}

export function requestLogHandlers({ accounts, requestLog }: RequestLogControlDeps) {
  const list: ControlHandler<ListRoute> = (c) => {
    const query = c.req.valid('query');
    const account = accountOr404(accounts, query.account_id);
    const filter = requestLogFilter(account?.id, query);
    // A cursor is valid for the same list, account and filters only.
    const scope = { list: '_sandbox/requests', scope: JSON.stringify([account?.id ?? '*', filter ?? null]) };
    const req = pageRequest(query, scope);
    const page = filter ? requestLog.find(filter, req) : account ? requestLog.page(account.id, req) : requestLog.pageAll(req);
    return c.json(pageEnvelope(page, query.limit, requestLogEntry, scope), 200);
  };
  return { list };
}
