/** The MCP feature: a Model Context Protocol server on stdio whose tools drive a running sandbox. */
export { MCP_EXIT, runMcp } from './command.js';
export { createMcpServer } from './server.js';
export type { SandboxConnection } from './sandbox-calls.js';
export { TOOL_NAMES } from './tools.js';
