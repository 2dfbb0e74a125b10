/** The panel feature: what other parts of the sandbox may use of it. */
export { PUBLIC_DIR, panelRoutes } from './panel.js';
export { register } from './register.js';
