/**
 * The MCP server's tools called in this process (the SDK's client over its in-memory transport)
 * against a sandbox and a webhook receiver on loopback: each tool's call and what the sandbox
 * recorded, a refusal as an error result with the sandbox's message and details, an unknown
 * account and an unreachable sandbox. Over stdio with the built CLI: e2e/mcp.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer, TOOL_NAMES, type SandboxConnection } from '../../../src/features/mcp/index.js';
import { DIRECT, directPayment } from '../../support/app.js';
import { freePort } from '../../support/ports.js';
import { perTest } from '../../support/servers.js';

const per = perTest();

/** A client connected in memory to the MCP server of `connection`; `call` calls one tool. */
async function connect(connection: Omit<SandboxConnection, 'flagName'>) {
  const server = createMcpServer({ flagName: '--sandbox-url', ...connection });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'in-process-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  per.defer(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, call };
}

const textOf = (result: CallToolResult, n = 0): string => {
  const item = result.content[n];
  return item?.type === 'text' ? item.text : '';
};

describe('the MCP tools in process', () => {
  it('lists every tool, each read-only hint as the tool does', async () => {
    const sandbox = await per.serve();
    const { client } = await connect({ origin: sandbox.url });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
    const readOnly = tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name);
    expect(readOnly.sort()).toEqual(['explain_signature', 'get_transaction', 'go_live_report', 'list_deliveries', 'list_transactions']);
  });

  it('creates, settles, refunds (console and /v4), reads, lists, sends, advances and reports, as the sandbox records', async () => {
    const receiver = await per.receive();
    const sandbox = await per.serve({ notificationUrl: receiver.url });
    const { call } = await connect({ origin: sandbox.url });

    const created = await call('create_payment', {
      idempotency_key: 'mcp-in-process-1',
      payment: directPayment({ amount: 3000, external_identifier: 'mcp-in-process-1' }),
    });
    expect(created.isError, textOf(created)).toBeFalsy();
    const { id } = created.structuredContent as { id: string };
    expect(created.structuredContent).toMatchObject({ status: 'PENDING', merchant_account_id: DIRECT.account_id });
    const replay = await call('create_payment', {
      account_id: DIRECT.account_id,
      idempotency_key: 'mcp-in-process-1',
      payment: directPayment({ amount: 3000, external_identifier: 'mcp-in-process-1' }),
    });
    expect(replay.structuredContent).toMatchObject({ id });

    expect((await call('settle_payment', { id })).structuredContent).toMatchObject({ id, status: 'SUCCEEDED' });
    const hook = await receiver.waitForMatch((h) => h.raw.includes('mcp-in-process-1'));
    const fromConsole = await call('refund_payment', { id, amount: 1000 });
    expect(fromConsole.structuredContent).toMatchObject({ type: 'refund', transaction_id: id, amount: 1000 });
    const merchant = await call('refund_payment', {
      id,
      account_id: DIRECT.account_id,
      idempotency_key: 'mcp-r-1',
      external_identifier: 'r-1',
    });
    expect(merchant.structuredContent).toMatchObject({ type: 'refund', amount: 2000, external_identifier: 'r-1' });
    expect((await call('get_transaction', { id })).structuredContent).toMatchObject({ id, refunded_amount: 3000, allowed_actions: [] });
    expect((await call('list_transactions', { account_id: DIRECT.account_id, limit: 1 })).structuredContent).toMatchObject({
      items: [{ id }],
      limit: 1,
    });

    const sent = await call('send_webhook', { account_id: DIRECT.account_id, url: receiver.url, body: { hello: 'in-process' } });
    expect(sent.isError, textOf(sent)).toBeFalsy();
    await receiver.waitForMatch((h) => h.raw === '{"hello":"in-process"}');
    const deliveries = await call('list_deliveries', { account_id: DIRECT.account_id, limit: 10 });
    expect((deliveries.structuredContent as { items: { resource_id: string }[] }).items.map((d) => d.resource_id)).toContain(id);

    const explained = await call('explain_signature', {
      body: JSON.stringify(JSON.parse(hook.raw), null, 2),
      signature: String(hook.headers.signature),
    });
    expect(explained.structuredContent).toMatchObject({ valid: false, cause: 'body_reserialized' });

    const advanced = await call('advance_clock', { seconds: 3600 });
    expect((advanced.structuredContent as { offset_seconds: number }).offset_seconds).toBeGreaterThanOrEqual(3600);
    const own = await call('advance_clock', { account_id: DIRECT.account_id, months: 1 });
    expect(own.isError, textOf(own)).toBeFalsy();
    const clock = (await (await fetch(`${sandbox.url}/_sandbox/accounts/${DIRECT.account_id}/clock`)).json()) as { offset_seconds: number };
    expect(clock.offset_seconds).toBeGreaterThan(3600 + 27 * 86_400);

    const report = await call('go_live_report', {
      account_id: DIRECT.account_id,
      require_coverage: 'payment_succeeded,refund,subscription_renewal',
    });
    expect(report.isError, textOf(report)).toBeFalsy();
    const { findings } = report.structuredContent as { findings: { code: string; scenario?: string }[] };
    expect(findings.filter((f) => f.code === 'coverage_missing').map((f) => f.scenario)).toEqual(['subscription_renewal']);
  });

  it('a refusal is an error result: the message, each detail on a line, then the envelope', async () => {
    const sandbox = await per.serve();
    const { call } = await connect({ origin: sandbox.url });
    const invalid = await call('create_payment', { payment: { amount: 100, currency: 'USD', return_url: 'https://shop.example/back' } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/^Request failed validation\n\/payment_method: .+/);
    expect(JSON.parse(textOf(invalid, 1))).toMatchObject({ type: 'error', status: 400 });
    const missing = await call('get_transaction', { id: '00000000-0000-4000-8000-000000000000' });
    expect(missing.isError).toBe(true);
    expect(JSON.parse(textOf(missing, 1))).toMatchObject({ type: 'error', status: 404 });
  });

  it('an account the sandbox does not hold, a guarded sandbox without its token, and an unreachable one are error results', async () => {
    const sandbox = await per.serve({ adminToken: 'mcp-admin-token' });
    const withToken = await connect({ origin: sandbox.url, adminToken: 'mcp-admin-token' });
    const nobody = await withToken.call('create_payment', { account_id: 'acc_nobody', payment: directPayment() });
    expect(nobody.isError).toBe(true);
    expect(textOf(nobody)).toMatch(/^no merchant account acc_nobody in GET \/_sandbox\/credentials/);
    expect((await withToken.call('list_deliveries', {})).isError).toBeFalsy();

    const withoutToken = await connect({ origin: sandbox.url });
    const refused = await withoutToken.call('create_payment', { payment: directPayment() });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(textOf(refused, 1))).toMatchObject({ status: 401 });

    const closed = await freePort();
    const down = await connect({ origin: `http://127.0.0.1:${closed}` });
    const unreachable = await down.call('list_deliveries', {});
    expect(unreachable.isError).toBe(true);
    expect(textOf(unreachable)).toContain(`cannot reach the sandbox at http://127.0.0.1:${closed}`);
    expect(unreachable.content).toHaveLength(1);
  });

  it('an answer that is not JSON, or not the error envelope, is an error result naming the call and the status', async () => {
    const notASandbox = await per.receive(); // a page for GET, the answer it is told for POST
    notASandbox.respond = () => ({ status: 502, body: 'bad gateway' });
    const { call } = await connect({ origin: notASandbox.origin });
    const page = await call('list_deliveries', {});
    expect(page.isError).toBe(true);
    expect(textOf(page)).toBe('GET /_sandbox/deliveries?limit=20 answered 200 with no JSON');
    const gateway = await call('send_webhook', { account_id: DIRECT.account_id, body: { hello: 'x' } });
    expect(gateway.isError).toBe(true);
    expect(textOf(gateway)).toBe('POST /_sandbox/webhooks/send answered 502: bad gateway');
  });
});
