/**
 * The panel feature: the panel's static files (`panel.ts`), mounted at the root; registered
 * last, after every other route. This file is its public surface too.
 */
import type { RouteContext } from '../../core/http/route-context.js';
import { PUBLIC_DIR, panelRoutes } from './panel.js';

export { PUBLIC_DIR, panelRoutes } from './panel.js';

export function register(ctx: RouteContext): void {
  ctx.pages.route('/', panelRoutes({ publicDir: PUBLIC_DIR }));
}
