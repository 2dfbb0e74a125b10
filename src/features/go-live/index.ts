/** The go-live feature: what other parts of the sandbox may use of it. */
export { reportControlRoutes } from './control/report.index.js';
export { reportQuerySchema } from './control/report.routes.js';
export type {
  CoverageEntry,
  CoverageScenario,
  GoLiveEvidence,
  GoLiveFinding,
  GoLiveFindingCode,
  GoLiveReport,
  GoLiveSeverity,
} from './go-live.js';
export { goLiveObserver, warnIgnoredWebhookField } from './request-observer.js';
export { runReport } from './report-command.js';
export { formatJunitSuite } from './report-format.js';
export type { JunitCase } from './report-format.js';
export { createGoLiveFeature } from './compose.js';
export type { GoLiveFeature, GoLiveFeatureDeps } from './compose.js';
export { GO_LIVE_STATE_TABLE } from './go-live-store.js';
