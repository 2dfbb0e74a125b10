/**
 * `payment-sandbox mcp [--sandbox-url URL] [--admin-token TOKEN]`: a Model Context Protocol
 * server on stdio whose tools drive a running sandbox, found as the other commands find it
 * (`--sandbox-url`, else `PAYMENT_SANDBOX_URL`, else the port of `PAYMENT_SANDBOX_PORT`, else
 * 4010). It serves until its input closes, then exits 0; 2 for bad options. Stdout carries
 * the protocol only.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Command, Option } from 'commander';
import { DEFAULT_SANDBOX_URL, sandboxOrigin } from '../../core/sandbox-client.js';
import { createMcpServer } from './server.js';

/** Exit codes of `mcp`. */
export const MCP_EXIT = { stopped: 0, usage: 2 } as const;

const SANDBOX_FLAG = '--sandbox-url';

interface McpFlags {
  sandboxUrl?: string;
  adminToken?: string;
}

function buildCommand(): Command {
  return new Command('payment-sandbox mcp')
    .description(
      "A Model Context Protocol server on stdio: a coding agent's tools to create, settle, fail and refund payments, advance a clock, send a webhook, explain a signature and read the go-live report of a running sandbox.",
    )
    .helpOption('-h, --help', 'show this help')
    .configureOutput({ outputError: (str, write) => write(str.split('\n')[0] + '\n') })
    .exitOverride()
    .addOption(
      new Option(`${SANDBOX_FLAG} <url>`, "the sandbox's origin [env PAYMENT_SANDBOX_URL]").default(
        undefined,
        `${DEFAULT_SANDBOX_URL}, or the port of PAYMENT_SANDBOX_PORT`,
      ),
    )
    .addOption(new Option('--admin-token <token>', "the sandbox's --admin-token, if it has one [env PAYMENT_SANDBOX_ADMIN_TOKEN]"))
    .addHelpText(
      'after',
      '\nIn an agent\'s MCP configuration:\n  {"mcpServers": {"payment-sandbox": {"command": "npx", "args": ["payment-sandbox", "mcp"]}}}\n',
    );
}

/** Runs `mcp` with the arguments after the subcommand name; resolves with the exit code once stdin closes. */
export async function runMcp(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const program = buildCommand();
  let flags: McpFlags;
  try {
    program.parse(argv, { from: 'user' });
    flags = program.opts<McpFlags>();
  } catch (err) {
    const e = err as { code?: string };
    return e.code === 'commander.helpDisplayed' ? MCP_EXIT.stopped : MCP_EXIT.usage; // commander printed its one line
  }
  const resolved = sandboxOrigin(flags.sandboxUrl, env, SANDBOX_FLAG);
  if ('error' in resolved) {
    process.stderr.write(`payment-sandbox mcp: ${resolved.error}\n`);
    return MCP_EXIT.usage;
  }
  const server = createMcpServer({
    origin: resolved.origin,
    adminToken: flags.adminToken ?? env.PAYMENT_SANDBOX_ADMIN_TOKEN,
    flagName: SANDBOX_FLAG,
  });
  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close();
  return MCP_EXIT.stopped;
}
