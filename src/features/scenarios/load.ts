/**
 * Reading scenario files: file → JSON (`json-text.ts`) → `scenarioFileSchema`
 * (`explain.ts` words a failure), with one-line errors that name the file and the exact
 * place of the problem, so that a typo in a `--scenario` file stops start-up with a
 * message a person can act on.
 */
import { BoundedReadError, readBoundedFile } from '../../core/bounded-file.js';
import { DEFAULT_BODY_LIMIT } from '../../core/config.js';
import { explainScenarioIssues, scenarioProblems, type ScenarioProblem } from './explain.js';
import { JsonSyntaxProblem, parseJsonText } from './json-text.js';
import { scenarioFileSchema, type ScenarioFile } from './schema.js';

/** A parsed scenario file and where it came from (the path as given, or another label). */
export type LoadedScenario = ScenarioFile & { source: string };

/** A scenario file that cannot be used; the message is one line starting with the source. */
export class ScenarioError extends Error {
  /** The file (or label) the problem is in. */
  readonly source: string;
  /** Each problem with its place in the file (empty when the file could not be read or parsed). */
  readonly problems: readonly ScenarioProblem[];

  constructor(source: string, problem: string, problems: readonly ScenarioProblem[] = []) {
    super(`${source}: ${problem}`);
    this.name = 'ScenarioError';
    this.source = source;
    this.problems = problems;
  }
}

/**
 * Reads and validates one scenario file. `source` of the result is `path` as given.
 * @throws ScenarioError when the file is unreadable, not a regular file, larger than the
 * default body limit, not JSON, or not a valid scenario.
 */
export function loadScenarioFile(path: string): LoadedScenario {
  let text: string;
  try {
    text = readBoundedFile(path, DEFAULT_BODY_LIMIT).toString('utf8');
  } catch (error) {
    const reason = error instanceof BoundedReadError ? error.reason : describeFsError(error);
    throw new ScenarioError(path, `cannot read the file: ${reason}`);
  }
  return parseScenarioText(text, path);
}

/**
 * Loads several scenario files, in order (the order in which rules are tried).
 * @throws ScenarioError for the first bad file, or when two files use the same `name`.
 */
export function loadScenarios(paths: string[]): LoadedScenario[] {
  const loaded: LoadedScenario[] = [];
  for (const path of paths) {
    const scenario = loadScenarioFile(path);
    const clash = loaded.find((other) => other.name === scenario.name);
    if (clash) {
      throw new ScenarioError(path, `name: "${scenario.name}" is already the name of ${clash.source}`);
    }
    loaded.push(scenario);
  }
  return loaded;
}

/**
 * Parses the text of a scenario file (a leading byte-order mark is allowed).
 * @throws ScenarioError with the line and column of a JSON syntax error.
 */
export function parseScenarioText(text: string, source: string): LoadedScenario {
  let json: unknown;
  try {
    json = parseJsonText(text);
  } catch (error) {
    if (error instanceof JsonSyntaxProblem) throw new ScenarioError(source, `invalid JSON at ${error.message}`);
    throw error;
  }
  return parseScenario(json, source);
}

/**
 * Validates an already parsed scenario file.
 * @throws ScenarioError naming the first problem's path (and how many more there are).
 */
export function parseScenario(json: unknown, source: string): LoadedScenario {
  const result = scenarioFileSchema.safeParse(json);
  if (result.success) return { ...result.data, source };
  throw new ScenarioError(source, explainScenarioIssues(result.error.issues, json), scenarioProblems(result.error.issues, json));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function describeFsError(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return oneLine(error instanceof Error ? error.message : String(error));
}
