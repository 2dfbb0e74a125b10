/**
 * The CLI's subcommands, through its `main` in process: `--help` lists each with one line,
 * `help <command>` shows that command's own help, and a mistyped command is refused on one
 * line with the nearest name suggested. The built CLI as a process: e2e/cli/commands.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SUBCOMMANDS, similarCommands } from '../../../src/cli.js';
import { VERB_SUMMARIES } from '../../../src/features/verbs/index.js';
import { runMain } from '../../support/in-process-cli.js';

const cli = (...args: string[]) => runMain(args);

describe('payment-sandbox subcommands', () => {
  it('every command the CLI dispatches is listed for --help', () => {
    const source = readFileSync(fileURLToPath(new URL('../../../src/cli.ts', import.meta.url)), 'utf8');
    const dispatched = [...source.matchAll(/argv\[0\] === '([\w-]+)'/g)].map((m) => m[1]!).filter((name) => name !== 'help');
    // The verbs on a running sandbox are dispatched by one test of their own names.
    expect(source).toMatch(/if \(isVerb\(argv\[0\]\)\) return runVerb\(/);
    dispatched.push(...Object.keys(VERB_SUMMARIES));
    expect(dispatched.length).toBeGreaterThanOrEqual(2);
    expect(Object.keys(SUBCOMMANDS).sort()).toEqual([...new Set(dispatched)].sort());
  });

  it('--help lists every subcommand, and help, with one line each', async () => {
    const r = await cli('--help');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: payment-sandbox \[options\] \| <command> \[arguments\]$/m);
    const commands = r.out.slice(r.out.indexOf('\nCommands:\n'));
    for (const [name, { summary }] of Object.entries(SUBCOMMANDS)) {
      const flat = commands.replace(/\n\s+/g, ' ');
      expect(flat, name).toContain(`${name}`);
      expect(flat, name).toContain(summary);
    }
    expect(commands).toMatch(/^ {2}report +print the go-live report/m);
    expect(commands).toMatch(/^ {2}check-webhooks <url> +check a merchant's webhook handler/m);
    expect(commands).toMatch(/^ {2}send-webhook +send any body as a signed webhook/m);
    expect(commands).toMatch(/^ {2}explain-signature +say why a webhook signature check fails/m);
    expect(commands).toMatch(/^ {2}conformance --url <base>\/v4 --api-key <key> --account-id <id> +run the behaviour checks/m);
    expect(commands).toMatch(/^ {2}help \[command\] +show the help of a command$/m);
  });

  it.each(Object.keys(SUBCOMMANDS))('help %s shows the same help as %s --help, exit 0', async (name) => {
    const viaHelp = await cli('help', name);
    const direct = await cli(name, '--help');
    expect(viaHelp.code).toBe(0);
    expect(direct.code).toBe(0);
    expect(viaHelp.out).toMatch(new RegExp(`^Usage: payment-sandbox ${name} `));
    expect(viaHelp.out).toBe(direct.out);
  });

  it('help alone shows the program help', async () => {
    const r = await cli('help');
    expect(r.code).toBe(0);
    expect(r.out).toBe((await cli('--help')).out);
  });

  it.each([
    [['reprot'], "error: unknown command 'reprot' (Did you mean report?)\n"],
    [['repot', '--fail-on', 'error'], "error: unknown command 'repot' (Did you mean report?)\n"],
    [['check-webhook', 'http://127.0.0.1:3000/webhooks'], "error: unknown command 'check-webhook' (Did you mean check-webhooks?)\n"],
    [['send-webhooks', '--body', '{}'], "error: unknown command 'send-webhooks' (Did you mean send-webhook?)\n"],
    [['explain-signatures'], "error: unknown command 'explain-signatures' (Did you mean explain-signature?)\n"],
    [['help', 'reprot'], "error: unknown command 'reprot' (Did you mean report?)\n"],
    [['--port', '0', 'reprot'], "error: unknown command 'reprot' (Did you mean report?)\n"],
  ])('a mistyped command %j is refused on one line with the nearest command suggested', async (args, message) => {
    const r = await cli(...args);
    expect(r.code).toBe(1);
    expect(r.err).toBe(message);
    expect(r.out).toBe('');
    expect(r.err).not.toContain('too many arguments');
  });

  it('a command nothing resembles is refused with the list of commands', async () => {
    const r = await cli('frobnicate');
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `error: unknown command 'frobnicate' (commands: ${Object.keys(SUBCOMMANDS).join(', ')}; see payment-sandbox --help)\n`,
    );
  });
});

describe('similarCommands', () => {
  it('suggests by small edits, transpositions and prefixes, nothing for a distant word', () => {
    expect(similarCommands('reprot')).toEqual(['report']);
    expect(similarCommands('REPORT')).toEqual(['report']);
    expect(similarCommands('check')).toEqual(['check-webhooks']);
    expect(similarCommands('chekc-webhooks')).toEqual(['check-webhooks']);
    expect(similarCommands('serve')).toEqual([]);
    expect(similarCommands('send')).toEqual(['send-webhook']);
    expect(similarCommands('explain')).toEqual(['explain-signature']);
  });
});
