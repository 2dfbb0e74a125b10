/**
 * The guides name only commands and flags the CLI has: every `payment-sandbox [command] ...`
 * written in README.md, CONTRIBUTING.md or docs/*.md (a code block or inline code, with `npx`
 * or `node bin/payment-sandbox.js`) uses a command the CLI knows and only flags its `--help`
 * lists (a command's own or the sandbox's), and a flag quoted alone in inline code (`--x`) is
 * a flag of the sandbox or one of its commands, unless it belongs to another tool the guides
 * name. The flags are read from the built CLI's own `--help`, so a flag renamed in the code
 * and not in the guides fails here.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SUBCOMMANDS } from '../../../src/cli.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'payment-sandbox.js');
const GUIDES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Flags of other tools that the guides quote alone in inline code. */
const OTHER_TOOLS = new Set([
  '--format',
  '--wait',
  '--wait-timeout',
  '--add-host',
  '--network',
  '--fail',
  '--omit',
  '--no-install',
  '--cache-from',
]);

/** The commands that have commands of their own, each with one of those. */
const NESTED: [string, string][] = [
  ['shadow', 'report'],
  ['fixtures', 'from-recording'],
];

/** The long flags a command's `--help` lists. */
function helpFlags(args: string[]): Set<string> {
  const res = spawnSync(process.execPath, [BIN, ...args, '--help'], { encoding: 'utf8', timeout: 20_000 });
  expect(res.status, `${args.join(' ')} --help: ${res.stderr}`).toBe(0);
  return new Set([...`${res.stdout}${res.stderr}`.matchAll(/(?<![\w-])--[a-z][\w-]*/g)].map((m) => m[0]));
}

describe('the flags the guides name', () => {
  const root = helpFlags([]);
  const commands = new Map(Object.keys(SUBCOMMANDS).map((name) => [name, helpFlags([name])]));
  // Commands with commands of their own: `shadow report`, `fixtures from-recording`.
  const nested = new Map(NESTED.map(([command, sub]) => [`${command} ${sub}`, helpFlags([command, sub])]));
  const all = new Set([...root, ...[...commands.values(), ...nested.values()].flatMap((flags) => [...flags])]);

  it('every payment-sandbox command line uses a command the CLI has and only its flags', () => {
    const wrong: string[] = [];
    let lines = 0;
    for (const path of GUIDES) {
      const text = readFileSync(join(ROOT, path), 'utf8').replace(/\\\n\s*/g, ' ');
      for (const m of text.matchAll(
        /(?:^|[\s`(])(?:npx (?:--no-install )?payment-sandbox|node \S*bin\/payment-sandbox\.js|payment-sandbox)((?: +[^\s`|;&)<>]+)*)/gm,
      )) {
        const words = m[1]!.trim().split(/\s+/).filter(Boolean);
        const command = words[0] !== undefined && !words[0].startsWith('-') && /^[a-z][a-z-]*$/.test(words[0]) ? words[0] : undefined;
        if (command !== undefined && !commands.has(command)) {
          // `payment-sandbox report` is a command; `payment-sandbox is ...` in prose is not a command line
          if (/^(report|check|send|explain|conform|settle|fail|refund|trigger|deliveries|tail|listen|mcp|shadow|fixtures)/.test(command))
            wrong.push(`${path}: unknown command "${command}" in "payment-sandbox${m[1]}"`);
          continue;
        }
        lines++;
        const flags = command === undefined ? root : (nested.get(`${command} ${words[1]}`) ?? commands.get(command)!);
        for (const word of words) {
          const flag = /^--[a-z][\w-]*/.exec(word)?.[0];
          if (flag !== undefined && !flags.has(flag) && !(command !== undefined && root.has(flag) && flag === '--help'))
            wrong.push(`${path}: ${flag} is not a flag of payment-sandbox${command ? ` ${command}` : ''}`);
        }
      }
    }
    expect(lines).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });

  it('a flag quoted alone in inline code is a flag of the sandbox or one of its commands', () => {
    const wrong: string[] = [];
    for (const path of GUIDES) {
      for (const m of readFileSync(join(ROOT, path), 'utf8').matchAll(/`(--[a-z][\w-]*[a-z0-9])(?:[ =][^`]*)?`/g)) {
        const flag = m[1]!;
        if (!all.has(flag) && !OTHER_TOOLS.has(flag)) wrong.push(`${path}: ${flag}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
