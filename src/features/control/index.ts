/** The control feature: what other parts of the sandbox may use of it. */
export { accountClockControlRoutes, clockControlRoutes } from './control/clock.index.js';
export { currencyControlRoutes } from './control/currencies.index.js';
export { eventControlRoutes } from './control/events.index.js';
export { faultControlRoutes } from './control/faults.index.js';
export { healthControlRoutes } from './control/health.index.js';
export { requestLogControlRoutes } from './control/requests.index.js';
export { resetControlRoutes } from './control/reset.index.js';
export type { ClockAdvanced } from './control/clock.schemas.js';
export { MAX_ADVANCE_SECONDS, accountClockParam, clockAdvanceSchema } from './control/clock.routes.js';
export { createControlFeature } from './compose.js';
export type { ControlFeature } from './compose.js';
