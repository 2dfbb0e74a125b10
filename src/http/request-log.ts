/**
 * Records every /v4 call in the request log (method, path, status, idempotency key, replayed,
 * duration, bodies of failures, warnings such as ignored unknown fields), for the panel.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.js';

const MAX_LOGGED_BODY = 16 * 1024;

export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = performance.now();
  c.set('warnings', []);
  c.set('replayed', false);
  c.set('idempotencyKey', undefined);
  await next();
  const sandbox = c.get('sandbox');
  const duration = performance.now() - started;
  let requestBody: string | null = null;
  if (c.req.method !== 'GET') {
    try {
      requestBody = (await c.req.text()).slice(0, MAX_LOGGED_BODY) || null;
    } catch {
      requestBody = null;
    }
  }
  const status = c.res.status;
  const responseBody = status >= 400 ? (await c.res.clone().text()).slice(0, MAX_LOGGED_BODY) : null;
  const account = c.get('account') as AppEnv['Variables']['account'] | undefined;
  const warnings = c.get('warnings');
  const id = sandbox.stores.requestLog.insert({
    account_id: account?.id ?? c.req.header('x-merchant-account-id') ?? null,
    method: c.req.method,
    path: c.req.path + (c.req.url.includes('?') ? c.req.url.slice(c.req.url.indexOf('?')) : ''),
    status,
    idempotency_key: c.req.header('idempotency-key') ?? null,
    replayed: c.get('replayed'),
    duration_ms: Math.round(duration * 100) / 100,
    request_body: requestBody,
    response_body: responseBody,
    warnings,
    at: sandbox.clock.nowMs(),
  });
  sandbox.emit('request.logged', account?.id ?? null, { id, method: c.req.method, path: c.req.path, status, duration_ms: Math.round(duration * 100) / 100 });
};
