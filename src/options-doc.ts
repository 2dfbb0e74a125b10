/**
 * `docs/options.md`, generated: one row per option of the options schema (`optionsSchema`),
 * with its flag and description from the command line, its `PAYMENT_SANDBOX_*` variable and
 * the default the schema applies. `npm run build` (scripts/build-docs.mjs) writes the page; a test checks that
 * the committed page equals what this renders.
 */
import { buildProgram } from './cli.js';
import { ENV_OPTIONS, envName, optionsSchema, type SandboxOptionsInput } from './core/config.js';
import { latencyText, type LatencyDistribution } from './core/http/load-rehearsal.js';

type OptionName = keyof SandboxOptionsInput;

/** What an option without a flag is for (set through `startSandbox()`, or its variable). */
const WITHOUT_FLAG: Partial<Record<OptionName, string>> = {
  deliveryTimeoutMs: 'how long a merchant has to answer one webhook attempt, in milliseconds (`startSandbox()` only)',
  bodyLimit: 'largest accepted request body, in bytes',
  ticker:
    'whether due work (renewals, retries, expiry) runs on its own in real time; `false` leaves it to clock advances (`startSandbox()` only)',
};

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

const isLatency = (value: unknown): value is LatencyDistribution =>
  typeof value === 'object' && value !== null && 'p50Ms' in value && 'p99Ms' in value;

function defaultText(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (typeof value === 'string' || typeof value === 'number') return `\`${value}\``;
  if (Array.isArray(value) && value.length > 0) return `\`${value.join(',')}\``;
  if (isLatency(value)) return `\`${latencyText(value)}\``;
  return 'none';
}

/** The Markdown of docs/options.md. */
export function renderOptionsPage(): string {
  const defaults: Record<string, unknown> = optionsSchema.parse({});
  const cliOptions = buildProgram().options;
  const rows: string[] = [];
  for (const name of Object.keys(optionsSchema.shape) as OptionName[]) {
    const option = cliOptions.find((o) => o.attributeName() === name);
    const variable = (ENV_OPTIONS as readonly string[]).includes(name) ? `\`${envName(name)}\`` : '';
    const flag = option ? `\`${option.flags}\`` : `\`${name}\` (no flag)`;
    const meaning = option ? option.description.slice(0, option.description.lastIndexOf(' (default: ')) : (WITHOUT_FLAG[name] ?? '');
    rows.push(`| ${cell(flag)} | ${variable} | ${defaultText(defaults[name])} | ${cell(meaning)} |`);
  }
  return `# Options

<!-- Generated from the options schema (src/core/config.ts) by \`npm run build\`: do not edit by hand. -->

Every option is a flag of \`npx payment-sandbox\` and a \`PAYMENT_SANDBOX_<NAME>\` environment
variable (flags win); \`startSandbox()\` takes the same options by their camelCase names
(\`notificationUrl\`, \`portFile\`, ...). A list variable takes comma-separated values.

| flag | variable | default | meaning |
|---|---|---|---|
${rows.join('\n')}

A bad value exits with code 1 and one line naming the flag, or the variable when the value came
from one; a mistyped flag gets a suggestion. \`SIGTERM\` and \`SIGINT\` finish in-flight requests
and deliveries, close the database and exit 0. \`npx payment-sandbox --help\` shows the same list.

## What the terminal shows

The first line on stdout, printed once the port is open (also with \`--quiet\`), is exactly

\`\`\`
payment-sandbox ready: url=http://127.0.0.1:4010 port=4010
\`\`\`

so a script using \`--port 0\` can read the port from it, or wait for \`--port-file\` (written
whole, in one rename). Then, unless \`--quiet\`, one line per webhook delivery attempt and, with
\`--log\`, one line per API request; with \`--log-format json\` each line is one JSON object. No
line carries an API key, a JWT, a card number or a security code.
`;
}
