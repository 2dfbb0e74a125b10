/**
 * Serves the control panel and the shared stylesheet from the package's `public/` folder
 * (static files, no build step), at `/`. The folder is found from the package's root
 * (`packagePath`), so it works from `src/` (tsx, vitest), `dist/` and the bundle alike. The panel is a client of the
 * control API only; its pages get a strict Content-Security-Policy: no script, style or
 * connection leaves the sandbox's own origin.
 */
import { sep } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { packagePath } from '../../core/config.js';
import type { AppEnv } from '../../core/http/env.js';

/** The package's public/ folder (with the path separator at its end). */
export const PUBLIC_DIR = packagePath('public') + sep;

const HEADERS: Record<string, string> = {
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
};

/** Where the panel's files are: the package's `PUBLIC_DIR`, or another folder in a test. */
export interface PanelOptions {
  /** The folder served at `/`, with the path separator at its end. */
  publicDir: string;
}

/** GET/HEAD of any file under public/ (`/` is index.html); anything else falls through to 404. */
export function panelRoutes(options: PanelOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const files = serveStatic<AppEnv>({ root: options.publicDir });
  app.get('*', async (c, next) => {
    const found = await files(c, async () => {});
    if (!found) return next();
    for (const [name, value] of Object.entries(HEADERS)) found.headers.set(name, value);
    return found;
  });
  return app;
}
