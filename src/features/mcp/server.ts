/** The MCP server of a sandbox: its name and version, what an agent is told first, and the tools. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { packageVersion } from '../../core/config.js';
import { SandboxCalls, type SandboxConnection } from './sandbox-calls.js';
import { registerSandboxTools } from './tools.js';

const INSTRUCTIONS = `Tools that drive a running payment-sandbox (a local emulator of the Payment Service API) the way a hand at its control panel would, so an integration can be exercised and checked: create_payment, then settle_payment or fail_payment (each sends the payment webhook to the merchant's handler), refund_payment, advance_clock (renewals, webhook retries), send_webhook, list_deliveries (did the handler acknowledge?), explain_signature (why a handler's signature check fails) and go_live_report (what would hurt in production). Amounts are in minor units (1050 USD is 10.50). A refused call is an error result carrying the sandbox's message.`;

/** A server whose tools call the sandbox at `connection`; connect it to a transport to serve. */
export function createMcpServer(connection: SandboxConnection): McpServer {
  const server = new McpServer({ name: 'payment-sandbox', version: packageVersion() }, { instructions: INSTRUCTIONS });
  registerSandboxTools(server, new SandboxCalls(connection));
  return server;
}
