/** The validation hook type; the hook itself is set once by `createRouter` (../router.ts). */
export type { Hook } from '../router.js';
