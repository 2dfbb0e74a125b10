/** Mounts the panel's static files at the root; registered last, after every other route. */
import type { RouteContext } from '../../core/http/route-context.js';
import { PUBLIC_DIR, panelRoutes } from './panel.js';

export function register(ctx: RouteContext): void {
  ctx.pages.route('/', panelRoutes({ publicDir: PUBLIC_DIR }));
}
