/** The conformance feature: what other parts of the sandbox may use of it. */
export { ConformanceConnectionError } from './client.js';
export { ConformanceCredentialsError } from './credentials.js';
export type {
  CheckFailure,
  CheckOutcome,
  CheckResult,
  ConformanceOptions,
  ConformanceReport,
  ConformanceTarget,
  Difference,
  Exchange,
} from './report.js';
export { conformancePassed, controlledBody, diffShapes, normalise, runConformance } from './run.js';
export { runConformanceCommand } from './command.js';
