/**
 * One body validation for /v4 and /_sandbox: the control API's bodies go through the same
 * function as the emulated API's writes, so they follow the same rules (a `null` on an
 * optional field is the field left out; one 400 listing every problem), and a body is
 * validated once, after its path.
 */
import { z } from '@hono/zod-openapi';
import { createRoute } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { jsonBody } from '../../../../src/core/http/body.js';
import type { AppEnv } from '../../../../src/core/http/env.js';
import { createRouter } from '../../../../src/core/http/router.js';
import { errorHandler } from '../../../../src/core/http/errors.js';
import { body, testApp } from '../../../support/app.js';

const post = (payload: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });

describe('body validation, alike for control routes and /v4', () => {
  const { app } = testApp();

  it('null on an optional control field is the field left out, as in /v4', async () => {
    const res = await app.request('/_sandbox/reset', post({ rewind_clock: null }));
    expect(res.status).toBe(200);
    const advance = await app.request('/_sandbox/clock/advance', post({ seconds: 60, months: null, wait_for_webhooks: null }));
    expect(advance.status).toBe(200);
  });

  it('a bad control body is one 400 listing every problem, in the /v4 envelope', async () => {
    const res = await app.request('/_sandbox/accounts', post({ mode: 'sideways', name: 42 }));
    expect(res.status).toBe(400);
    const b = await body(res);
    expect(b).toMatchObject({ type: 'error', code: 'bad_request', status: 400 });
    const pointers = (b.details as { pointer: string; location: string }[]).map((d) => `${d.location}${d.pointer}`).sort();
    expect(pointers).toEqual(['body/mode', 'body/name']);
  });

  it('a route validates its body once, with the declared schema, after its path', async () => {
    let parses = 0;
    const router = createRouter<AppEnv>();
    router.use('*', jsonBody({ maxSize: 1024 }));
    const route = createRoute({
      method: 'post',
      path: '/things/{id}',
      request: {
        params: z.object({ id: z.string().regex(/^\d+$/) }),
        body: {
          required: true,
          content: {
            'application/json': {
              schema: z.object({ n: z.number().optional() }).superRefine(() => {
                parses += 1;
              }),
            },
          },
        },
      },
      responses: { 200: { description: 'ok' } },
    });
    router.openapi(route, (c) => c.json({ n: c.req.valid('json').n ?? null }, 200));
    router.onError(errorHandler({ error: () => undefined }));

    const ok = await router.request('/things/1', post({ n: null }));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ n: null });
    expect(parses).toBe(1);

    const badPath = await router.request('/things/x', post({ n: 'nope' }));
    expect(badPath.status).toBe(400);
    expect(((await badPath.json()) as { details: { location: string }[] }).details.map((d) => d.location)).toEqual(['path']);
    expect(parses).toBe(1);

    const documented = router.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } });
    expect(documented.paths?.['/things/{id}']?.post?.requestBody).toBeDefined();
  });
});
