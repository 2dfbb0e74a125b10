/** The verbs feature: hand actions on a running sandbox from the command line. */
export { isVerb, parseVerb, runParsedVerb, runVerb, VERB_SUMMARIES } from './command.js';
export type { ParsedVerb, VerbName, VerbOutput } from './command.js';
export { SandboxClient, VERB_EXIT, VerbFailure } from './client.js';
export { TRIGGER_EVENTS } from './trigger.js';
export type { TriggerEvent, TriggerResult } from './trigger.js';
