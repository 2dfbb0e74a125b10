/**
 * Serves the control panel and the shared stylesheet from the package's `public/` folder
 * (static files, no build step), at `/`. The folder is found relative to this module, so it
 * works from `src/` (tsx, vitest) and from `dist/` alike. The panel is a client of the
 * control API only; its pages get a strict Content-Security-Policy: no script, style or
 * connection leaves the sandbox's own origin.
 */
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { AppEnv } from './env.js';

/** The package's public/ folder (this file is src/http/panel.ts or dist/http/panel.js). */
export const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));

const HEADERS: Record<string, string> = {
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
};

/** GET/HEAD of any file under public/ (`/` is index.html); anything else falls through to 404. */
export function panelRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const files = serveStatic<AppEnv>({ root: PUBLIC_DIR });
  app.get('*', async (c, next) => {
    const found = await files(c, async () => {});
    if (!found) return next();
    for (const [name, value] of Object.entries(HEADERS)) found.headers.set(name, value);
    return found;
  });
  return app;
}
