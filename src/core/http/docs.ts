/**
 * The guides, served by the sandbox itself, offline and of its own version: `GET /docs` (the
 * index of the pages) and `GET /docs/<page>` (`<page>` is a `docs/*.md` file name without
 * `.md`; the contributor pages are not served). `npm run build` renders the Markdown to HTML
 * under `dist/docs/` (scripts/build-docs.mjs), with `dist/docs/search-index.json`, the sections the
 * pages' search box (the panel's `/docs.js`) looks through; this router only reads those
 * files, never Markdown. An unknown page is a 404 in the spec's envelope.
 */
import { readFile } from 'node:fs/promises';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { notFound } from '../domain/errors.js';
import { packagePath } from '../config.js';
import type { AppEnv } from './env.js';
import { errorResponse } from './errors.js';
import { pageOperation } from './openapi/document.js';

/** Where the build puts the rendered pages. */
export const DOCS_DIR = packagePath('dist', 'docs');

/** Where the rendered pages are read from: `DOCS_DIR`, or another folder in a test. */
export interface DocsOptions {
  docsDir: string;
}

const HEADERS: Record<string, string> = {
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

const PAGE_NAME = /^[a-z0-9][a-z0-9-]*$/;
const IMAGE_NAME = /^[a-z0-9][a-z0-9-]*\.png$/;

/** GET /docs, /docs/<page>, their stylesheet and images. */
export function docsRoutes(options: DocsOptions): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  const html = { content: { 'text/html': { schema: { type: 'string' as const } } } };
  const documented = (path: string, operationId: string, summary: string, type: string): void =>
    app.openAPIRegistry.registerPath({
      method: 'get',
      path,
      ...pageOperation,
      parameters: [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
        name: m[1]!,
        in: 'path' as const,
        required: true,
        schema: { type: 'string' as const },
      })),
      operationId,
      summary,
      responses: {
        200: { description: summary, content: { [type]: { schema: { type: 'string' } } } },
        404: { description: 'Not built, or no such page', ...html },
      },
    });
  documented('/', 'getDocsIndex', 'The guides: an index of the pages', 'text/html');
  // One route per depth (not /docs.css and /images/{file} beside /{page}): a static or deeper
  // route beside a parameter makes Hono's RegExpRouter give way to its slower TrieRouter for
  // the whole app, every /v4 request included.
  documented(
    '/{page}',
    'getDocsPage',
    'One guide, rendered from docs/<page>.md; `docs.css` is their stylesheet, `search-index.json` the sections their search looks through',
    'text/html',
  );
  documented('/{folder}/{file}', 'getDocsImage', 'An image of the guides (folder `images`)', 'image/png');
  const file = async (name: string): Promise<Buffer | undefined> => {
    try {
      return await readFile(`${options.docsDir}/${name}`);
    } catch {
      return undefined;
    }
  };
  const send = (body: Buffer, type: string): Response =>
    new Response(new Uint8Array(body), { status: 200, headers: { ...HEADERS, 'Content-Type': type } });
  const missing = (c: Context, what: string): Response => errorResponse(c, notFound(`No docs page ${what}; GET /docs lists the pages`));

  app.get('/', async (c) => {
    const body = await file('index.html');
    return body
      ? send(body, 'text/html; charset=utf-8')
      : errorResponse(c, notFound('The docs are not built in this installation (npm run build renders them)'));
  });
  app.get('/:folder/:file', async (c) => {
    const { folder, file: name } = c.req.param();
    const body = folder === 'images' && IMAGE_NAME.test(name) ? await file(`images/${name}`) : undefined;
    return body ? send(body, 'image/png') : missing(c, `${folder}/${name}`);
  });
  app.get('/:page', async (c) => {
    const page = c.req.param('page');
    if (page === 'docs.css') {
      const css = await file('docs.css');
      return css ? send(css, 'text/css; charset=utf-8') : missing(c, 'docs.css');
    }
    if (page === 'search-index.json') {
      const index = await file('search-index.json');
      return index ? send(index, 'application/json') : missing(c, 'search-index.json');
    }
    const body = PAGE_NAME.test(page) && page !== 'index' ? await file(`${page}.html`) : undefined;
    return body ? send(body, 'text/html; charset=utf-8') : missing(c, `"${page}"`);
  });
  return app;
}
