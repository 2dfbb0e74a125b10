/**
 * `payment-sandbox mcp`, driven as a coding agent's client drives it: the built CLI spawned
 * over stdio through the SDK's own `Client` and `StdioClientTransport`, against a sandbox
 * and a webhook receiver on real sockets. The tools are listed with JSON Schemas from the
 * API's own schemas; a payment is created, settled (its webhook arrives), the go-live report
 * read and a re-serialized body's signature explained; a refused call is an error result
 * with the sandbox's own message; the server exits when its input closes.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/index.js';
import { DIRECT, directPayment, startReceiver, type Receiver } from '../../support/app.js';
import { until } from '../../support/until.js';

const BIN = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));

let sandbox: RunningSandbox;
let receiver: Receiver;
let transport: StdioClientTransport;
let client: Client;
let stderr = '';

/** Calls a tool; the result as the SDK's client hands it over. */
async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text of a result's first content item. */
const textOf = (result: CallToolResult): string => {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
};

beforeAll(async () => {
  receiver = await startReceiver();
  sandbox = await startSandbox({ ticker: false, notificationUrl: receiver.url });
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: { PATH: process.env.PATH ?? '', PAYMENT_SANDBOX_URL: sandbox.url },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  client = new Client({ name: 'payment-sandbox-test', version: '1.0.0' });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  await sandbox?.stop();
  await receiver?.close();
});

describe('payment-sandbox mcp over stdio', () => {
  it("lists the verbs as tools whose input schemas are JSON Schemas with the API's required fields", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'advance_clock',
        'create_payment',
        'explain_signature',
        'fail_payment',
        'get_transaction',
        'go_live_report',
        'list_deliveries',
        'list_transactions',
        'refund_payment',
        'send_webhook',
        'settle_payment',
      ].sort(),
    );
    const schema = (name: string) => tools.find((t) => t.name === name)!.inputSchema as Record<string, unknown> & { required?: string[] };
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.description, tool.name).toBeTruthy();
    }
    expect(schema('create_payment').required).toEqual(['payment']);
    // The create body of each mode, as the API validates it: direct needs the card and browser_info, checkout return_url.
    const modes = (schema('create_payment').properties as { payment: { anyOf: { required: string[] }[] } }).payment.anyOf;
    expect(modes.map((m) => [...m.required].sort())).toEqual([
      ['amount', 'browser_info', 'currency', 'payment_method'],
      ['amount', 'currency', 'return_url'],
    ]);
    expect(schema('settle_payment').required).toEqual(['id']);
    expect(schema('fail_payment').required).toEqual(['id']);
    expect(schema('refund_payment').required).toEqual(['id']);
    expect(schema('send_webhook').required).toEqual(['account_id', 'body']);
    expect(schema('explain_signature').required).toEqual(['signature']);
    expect(schema('list_transactions').required).toEqual(['account_id']);
    expect(Object.keys(schema('advance_clock').properties as object).sort()).toEqual([
      'account_id',
      'months',
      'seconds',
      'wait_for_webhooks',
    ]);
    expect(schema('advance_clock').required ?? []).toEqual([]);
    expect((schema('go_live_report').properties as Record<string, { type?: string }>).require_coverage!.type).toBe('string');
  });

  it('creates a payment, settles it (its webhook arrives), reads the report and explains a re-serialized body', async () => {
    const created = await call('create_payment', { payment: directPayment({ external_identifier: 'mcp-order-1' }) });
    expect(created.isError, textOf(created)).toBeFalsy();
    const payment = created.structuredContent as { id: string; status: string; merchant_account_id: string };
    expect(payment).toMatchObject({ status: 'PENDING', merchant_account_id: DIRECT.account_id });
    expect(JSON.parse(textOf(created))).toEqual(payment);

    const settled = await call('settle_payment', { id: payment.id });
    expect(settled.isError, textOf(settled)).toBeFalsy();
    expect(settled.structuredContent).toMatchObject({ id: payment.id, status: 'SUCCEEDED' });
    const hook = await receiver.waitForMatch((h) => h.raw.includes('mcp-order-1'));

    const report = await call('go_live_report', { account_id: DIRECT.account_id, require_coverage: 'payment_succeeded,refund' });
    expect(report.isError, textOf(report)).toBeFalsy();
    const { coverage, findings } = report.structuredContent as {
      coverage: { scenario: string; seen: boolean }[];
      findings: { code: string; scenario?: string }[];
    };
    expect(coverage.find((c) => c.scenario === 'payment_succeeded')?.seen).toBe(true);
    expect(findings.filter((f) => f.code === 'coverage_missing').map((f) => f.scenario)).toEqual(['refund']);

    const explained = await call('explain_signature', {
      body: JSON.stringify(JSON.parse(hook.raw), null, 2),
      signature: String(hook.headers.signature),
    });
    expect(explained.isError, textOf(explained)).toBeFalsy();
    expect(explained.structuredContent).toMatchObject({ valid: false, cause: 'body_reserialized' });

    // The delivery log shows the settled payment's webhook acknowledged.
    await until('the delivery acknowledged', async () => {
      const deliveries = await call('list_deliveries', { account_id: DIRECT.account_id });
      expect(deliveries.isError, textOf(deliveries)).toBeFalsy();
      const items = (deliveries.structuredContent as { items: { state: string; resource_id: string }[] }).items;
      return items.some((d) => d.resource_id === payment.id && d.state === 'delivered') ? true : undefined;
    });
  });

  it("answers a call the sandbox refuses with an error result carrying the sandbox's message", async () => {
    const created = await call('create_payment', { payment: directPayment({ external_identifier: 'mcp-order-2' }) });
    const { id } = created.structuredContent as { id: string };
    expect((await call('fail_payment', { id })).isError).toBeFalsy();
    // The same call straight to the control API: the envelope the tool must carry.
    const direct = await fetch(`${sandbox.url}/_sandbox/transactions/${id}/settle`, { method: 'POST' });
    const envelope = (await direct.json()) as { type: string; status: number; message: string };
    expect(envelope).toMatchObject({ type: 'error', status: 409 });

    const refused = await call('settle_payment', { id });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(envelope.message);
    const second = refused.content[1];
    expect(second?.type === 'text' ? JSON.parse(second.text) : undefined).toMatchObject({ type: 'error', status: 409 });

    // A /v4 create the API refuses (a direct-mode account without its card): the message, then each detail's pointer and message.
    const invalid = await call('create_payment', { payment: { amount: 100, currency: 'USD', return_url: 'https://shop.example/back' } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/^Request failed validation\n\/payment_method: /);
  });

  it('refunds (console and /v4), advances the sandbox clock and an account clock, sends a webhook, reads and lists', async () => {
    const created = await call('create_payment', { payment: directPayment({ amount: 3000, external_identifier: 'mcp-order-3' }) });
    const { id } = created.structuredContent as { id: string };
    await call('settle_payment', { id });

    const fromConsole = await call('refund_payment', { id, amount: 1000 });
    expect(fromConsole.isError, textOf(fromConsole)).toBeFalsy();
    expect(fromConsole.structuredContent).toMatchObject({ type: 'refund', transaction_id: id, amount: 1000 });
    const merchant = await call('refund_payment', {
      id,
      account_id: DIRECT.account_id,
      idempotency_key: 'mcp-refund-1',
      external_identifier: 'r-1',
    });
    expect(merchant.isError, textOf(merchant)).toBeFalsy();
    expect(merchant.structuredContent).toMatchObject({ type: 'refund', amount: 2000, external_identifier: 'r-1' });
    const over = await call('refund_payment', { id, amount: 1 });
    expect(over.isError).toBe(true);

    const read = await call('get_transaction', { id });
    expect(read.structuredContent).toMatchObject({ id, refunded_amount: 3000, allowed_actions: [] });
    const listed = await call('list_transactions', { account_id: DIRECT.account_id, limit: 1 });
    expect(listed.structuredContent).toMatchObject({ items: [{ id }], limit: 1 });

    const sent = await call('send_webhook', { account_id: DIRECT.account_id, url: receiver.url, body: { hello: 'mcp' } });
    expect(sent.isError, textOf(sent)).toBeFalsy();
    await receiver.waitForMatch((h) => h.raw === '{"hello":"mcp"}');

    const advanced = await call('advance_clock', { seconds: 3600 });
    expect(advanced.isError, textOf(advanced)).toBeFalsy();
    const sandboxOffset = (advanced.structuredContent as { offset_seconds: number }).offset_seconds;
    expect(sandboxOffset).toBeGreaterThanOrEqual(3600);
    const account = await call('advance_clock', { account_id: DIRECT.account_id, months: 1 });
    expect(account.isError, textOf(account)).toBeFalsy();
    expect((account.structuredContent as { offset_seconds: number }).offset_seconds).toBeGreaterThan(sandboxOffset);
    const global = (await (await fetch(`${sandbox.url}/_sandbox/clock`)).json()) as { offset_seconds: number };
    expect(global.offset_seconds).toBeCloseTo(sandboxOffset, 0);
    // Both seconds and months: the API's own rule refuses it before any call.
    const both = await call('advance_clock', { seconds: 1, months: 1 });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toContain('Give either seconds or months');

    const unknown = await call('create_payment', { account_id: 'acc_nobody', payment: directPayment() });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^no merchant account acc_nobody in GET \/_sandbox\/credentials/);
  });

  it('exits 0 when its input closes, 2 for a --sandbox-url that is not a URL; stdout carries the protocol only', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'mcp', ...args], { env: { PATH: process.env.PATH ?? '' } });
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
        child.on('close', (code) => resolve({ code, out, err }));
        child.stdin.end();
      });
    expect(await run([])).toEqual({ code: 0, out: '', err: '' });
    const bad = await run(['--sandbox-url', 'ftp://nowhere']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^payment-sandbox mcp: invalid --sandbox-url "ftp:\/\/nowhere"/);
    expect(bad.out).toBe('');
    expect(stderr).toBe('');
  });
});
