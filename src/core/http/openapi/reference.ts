/**
 * The API reference page, offline: `GET /reference` is an HTML page that renders
 * `/openapi.json` with Redoc's standalone bundle, served by `GET /reference/redoc.standalone.js`
 * from the package itself (no CDN). Each operation shows its full URL (the API's server is
 * `<base>/v4`, the control API's and the pages' `<base>`), so the hostname is not hidden. The bundle comes from the `redoc` npm package: `npm run
 * build` copies it to `dist/reference/` (redoc is a build-time dependency only, so installing
 * the sandbox does not pull React and Redoc's other dependencies).
 */
import { readFile } from 'node:fs/promises';
import { OpenAPIHono } from '@hono/zod-openapi';
import { packagePath } from '../../config.js';
import type { AppEnv } from '../env.js';
import { pageOperation } from './document.js';

/** Where the build puts Redoc's bundle (this file is in src/core/http/openapi/ or dist/core/http/openapi/). */
export const REDOC_BUNDLE_FILE = packagePath('dist', 'reference', 'redoc.standalone.js');

/** Redoc styles itself with inline <style> elements and runs its search in a blob: worker. */
const HEADERS: Record<string, string> = {
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'none'",
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · payment-sandbox</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>body { margin: 0; }</style>
</head>
<body>
<redoc spec-url="/openapi.json" expand-responses="200,201" path-in-middle-panel="true"></redoc>
<script src="/reference/redoc.standalone.js"></script>
</body>
</html>
`;

/**
 * The bundle's one address off the sandbox: the footer's Redocly logo, loaded from a CDN
 * (the page's CSP would block it, with an error in the console). It becomes an empty image.
 */
const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = 'data:image/svg+xml,%3Csvg xmlns=%27http://www.w3.org/2000/svg%27/%3E';

/** Where Redoc's bundle is read from: `REDOC_BUNDLE_FILE` of the build, or another file in a test. */
export interface ReferenceOptions {
  redocBundleFile: string;
}

/** GET /reference and its script, each documented beside its handler. */
export function referenceRoutes(options: ReferenceOptions): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  // Read once per app, on first use; a bundle not built yet is looked for again next time.
  let bundle: Promise<Buffer | undefined> | undefined;
  const readBundle = (): Promise<Buffer | undefined> =>
    (bundle ??= readFile(options.redocBundleFile, 'utf8').then(
      (text) => Buffer.from(text.replaceAll(REDOC_CDN_LOGO, EMPTY_IMAGE)),
      () => {
        bundle = undefined;
        return undefined;
      },
    ));

  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/',
    ...pageOperation,
    operationId: 'getApiReference',
    summary: 'This document as a readable API reference (Redoc, offline)',
    responses: { 200: { description: 'The reference page', content: { 'text/html': { schema: { type: 'string' } } } } },
  });
  app.get('/', (c) => c.html(PAGE, 200, HEADERS));

  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/redoc.standalone.js',
    ...pageOperation,
    operationId: 'getApiReferenceScript',
    summary: "The reference page's script: Redoc's standalone bundle, from the package",
    responses: {
      200: { description: 'The script', content: { 'text/javascript': { schema: { type: 'string' } } } },
      404: {
        description: 'The bundle was not built (`npm run build` copies it)',
        content: { 'text/plain': { schema: { type: 'string' } } },
      },
    },
  });
  app.get('/redoc.standalone.js', async (c) => {
    const script = await readBundle();
    if (!script) return c.text('Redoc bundle missing: run `npm run build`, which copies it to dist/reference/.', 404);
    return c.body(new Uint8Array(script), 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
    });
  });

  return app;
}
