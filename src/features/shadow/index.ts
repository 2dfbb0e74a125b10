/** The shadow feature: a proxy that compares the upstream's answers with the sandbox's, its report, recordings and their fixtures. */
export { runFixturesCommand, runShadowCommand } from './command.js';
export { ShadowStartError, startShadow } from './proxy.js';
export type { InProcessSandbox, RunningShadow, ShadowOptions } from './proxy.js';
export { fixturesFromRecording, parseRecording } from './from-recording.js';
export { formatShadowJunit, formatShadowText } from './format.js';
export type { ShadowDifference, ShadowReport } from './shadow-report.js';
export type { RecordingLine } from './recording.js';
