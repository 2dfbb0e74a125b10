/**
 * The MCP server's tools: the sandbox's verbs, each with the input schema of the request it
 * makes (the same zod schemas the API validates with, from the features that own them), and
 * the call it makes. A tool's result is the JSON the sandbox answered; a refusal is an error
 * result whose text is the message of the spec's error envelope with one line per detail
 * (its pointer and message), then the envelope.
 */
import type { McpServer, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AnyObjectSchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from '@hono/zod-openapi';
import { idParam } from '../../core/http/control-route-parts.js';
import { accountClockParam, clockAdvanceSchema } from '../sandbox/index.js';
import { reportQuerySchema } from '../go-live/index.js';
import { controlTransactionListQuerySchema, refundCreateSchema, transactionCreateDocument } from '../transactions/index.js';
import { deliveryListQuerySchema, explainRequestSchema, sendWebhookRequestSchema } from '../webhooks/index.js';
import type { SandboxAnswer, SandboxCalls, SandboxRequest } from './sandbox-calls.js';

/** One tool: its name, what an agent reads of it, its input schema and the call it makes. */
interface ToolSpec<S extends AnyObjectSchema> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** Whether the tool only reads (an agent may call it freely). */
  readOnly: boolean;
  request: (args: SchemaOutput<S>) => SandboxRequest;
}

/** The names of the tools, in the order they are listed. */
export const TOOL_NAMES = [
  'create_payment',
  'refund_payment',
  'settle_payment',
  'fail_payment',
  'get_transaction',
  'list_transactions',
  'advance_clock',
  'send_webhook',
  'list_deliveries',
  'explain_signature',
  'go_live_report',
] as const;

/** The result of a tool: the sandbox's JSON, or an error result carrying its message. */
export function toolResult(answer: SandboxAnswer): CallToolResult {
  if (answer.ok) {
    const body = answer.body;
    const structured = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    return {
      content: [{ type: 'text', text: JSON.stringify(body, null, 2) }],
      ...(structured === undefined ? {} : { structuredContent: structured }),
    };
  }
  const lines = (answer.details ?? []).map((d) => `${d.pointer === '' ? d.location : d.pointer}: ${d.message}`);
  return {
    isError: true,
    content: [
      { type: 'text', text: [answer.message, ...lines].join('\n') },
      ...(answer.envelope === undefined ? [] : [{ type: 'text' as const, text: JSON.stringify(answer.envelope, null, 2) }]),
    ],
  };
}

function addTool<S extends AnyObjectSchema>(server: McpServer, calls: SandboxCalls, spec: ToolSpec<S>): void {
  // The SDK validates the arguments with `spec.input` first; its callback type is a conditional
  // type that TypeScript cannot resolve for a generic schema, hence the one assertion.
  const callback = (async (args: SchemaOutput<S>) => toolResult(await calls.send(spec.request(args)))) as ToolCallback<S>;
  server.registerTool(
    spec.name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: spec.input,
      annotations: { readOnlyHint: spec.readOnly, openWorldHint: false },
    },
    callback,
  );
}

const accountId = (description: string) => z.string().min(1).optional().describe(description);

/** Registers every tool of `TOOL_NAMES` on `server`, each calling the sandbox through `calls`. */
export function registerSandboxTools(server: McpServer, calls: SandboxCalls): void {
  addTool(server, calls, {
    name: 'create_payment',
    title: 'Create a payment',
    description:
      'POST /v4/transactions with the account\'s own credentials (default: the demo direct-mode account). `payment` is the API\'s create body: amount in minor units, currency; a direct-mode account also sends payment_method (a card: {"type":"card","number":"4111111111111111","expiration_date":"12/30","security_code":"123"}) and browser_info; a checkout-mode account sends return_url. The payment stays PENDING until settle_payment or fail_payment, except the documented magic values. Answers the transaction record (201).',
    input: z.object({
      account_id: accountId('The merchant account (GET /_sandbox/credentials); default the demo direct-mode account.'),
      idempotency_key: z.string().min(1).max(255).optional().describe('Sent as the Idempotency-Key header.'),
      payment: transactionCreateDocument,
    }),
    readOnly: false,
    request: ({ account_id, idempotency_key, payment }) => ({
      api: 'v4',
      accountId: account_id,
      path: '/transactions',
      body: payment,
      idempotencyKey: idempotency_key,
    }),
  });
  addTool(server, calls, {
    name: 'refund_payment',
    title: 'Refund a payment',
    description:
      "Refund a SUCCEEDED transaction. Without account_id: as if from the merchant console (POST /_sandbox/transactions/{id}/refund). With account_id: as the merchant's code does, POST /v4/transactions/{id}/refunds with that account's credentials (reason and external_identifier as the API takes them). amount in minor units, default the remainder; the refund webhook follows.",
    input: idParam.extend(refundCreateSchema.shape).extend({
      account_id: accountId('Refund through /v4 as this merchant account; without it, through the control API.'),
      idempotency_key: z.string().min(1).max(255).optional().describe('With account_id: sent as the Idempotency-Key header.'),
    }),
    readOnly: false,
    request: ({ id, account_id, idempotency_key, ...refund }) =>
      account_id === undefined
        ? {
            api: 'control',
            method: 'POST',
            path: `/transactions/${encodeURIComponent(id)}/refund`,
            body: { amount: refund.amount, reason: refund.reason },
          }
        : {
            api: 'v4',
            accountId: account_id,
            path: `/transactions/${encodeURIComponent(id)}/refunds`,
            body: refund,
            idempotencyKey: idempotency_key,
          },
  });
  for (const [verb, outcome] of [
    ['settle', 'SUCCEEDED'],
    ['fail', 'FAILED'],
  ] as const) {
    addTool(server, calls, {
      name: `${verb}_payment`,
      title: `${verb === 'settle' ? 'Settle' : 'Fail'} a payment`,
      description: `POST /_sandbox/transactions/{id}/${verb}: outcome ${outcome} now for a PENDING transaction, and its payment webhook. A transaction that already has its outcome is refused (409).`,
      input: idParam,
      readOnly: false,
      request: ({ id }) => ({ api: 'control', method: 'POST', path: `/transactions/${encodeURIComponent(id)}/${verb}` }),
    });
  }
  addTool(server, calls, {
    name: 'get_transaction',
    title: 'Read a transaction',
    description:
      'GET /_sandbox/transactions/{id}: the transaction with its refunds, the actions legal now, the scenario rule that decided it and its webhook deliveries with every attempt.',
    input: idParam,
    readOnly: true,
    request: ({ id }) => ({ api: 'control', method: 'GET', path: `/transactions/${encodeURIComponent(id)}` }),
  });
  addTool(server, calls, {
    name: 'list_transactions',
    title: 'List transactions',
    description: "GET /_sandbox/transactions: an account's transactions with their refunds, newest first, a page at a time (next_cursor).",
    input: controlTransactionListQuerySchema,
    readOnly: true,
    request: (query) => ({ api: 'control', method: 'GET', path: '/transactions', query }),
  });
  addTool(server, calls, {
    name: 'advance_clock',
    title: 'Advance a clock',
    description:
      "Move the sandbox clock forward (POST /_sandbox/clock/advance), or one account's clock only with account_id (POST /_sandbox/accounts/{account_id}/clock/advance), by seconds or calendar months, running what falls due in time order: renewals, webhook retries, key and link expiry, scenario steps. Answers the clock and how many steps ran.",
    input: clockAdvanceSchema.safeExtend({
      account_id: accountClockParam.shape.account_id.optional().describe("Move this account's clock only."),
    }),
    readOnly: false,
    request: ({ account_id, ...advance }) => ({
      api: 'control',
      method: 'POST',
      path: account_id === undefined ? '/clock/advance' : `/accounts/${encodeURIComponent(account_id)}/clock/advance`,
      body: advance,
    }),
  });
  addTool(server, calls, {
    name: 'send_webhook',
    title: 'Send a webhook',
    description:
      'POST /_sandbox/webhooks/send: send any body as a webhook of an account, signed as every delivery is, with the same retries, log and target guard (url default: the sandbox --notification-url). Answers the delivery; list_deliveries shows its attempts.',
    input: sendWebhookRequestSchema,
    readOnly: false,
    request: (body) => ({ api: 'control', method: 'POST', path: '/webhooks/send', body }),
  });
  addTool(server, calls, {
    name: 'list_deliveries',
    title: 'List webhook deliveries',
    description:
      'GET /_sandbox/deliveries: the webhook delivery log, newest first, each with its state and every attempt (status, answer, error), for one account or all.',
    input: deliveryListQuerySchema,
    readOnly: true,
    request: (query) => ({ api: 'control', method: 'GET', path: '/deliveries', query }),
  });
  addTool(server, calls, {
    name: 'explain_signature',
    title: 'Explain a webhook signature',
    description:
      'POST /_sandbox/signatures/explain: given the body a webhook handler verified (body, or body_base64 for exact bytes) and the signature header it checked, say whether it is valid and, if not, the one cause (re-serialized body, wrong key, ...), the first differing byte and the fix.',
    input: explainRequestSchema,
    readOnly: true,
    request: (body) => ({ api: 'control', method: 'POST', path: '/signatures/explain', body }),
  });
  addTool(server, calls, {
    name: 'go_live_report',
    title: 'Read the go-live report',
    description:
      'GET /_sandbox/report: what in the integration would hurt in production (findings with evidence and a fix: duplicate charges, ignored Retry-After, unverified signatures, ...) and which scenarios its tests went through (coverage). require_coverage: "recommended" or scenario names separated by commas, each one not seen is a coverage_missing error.',
    input: reportQuerySchema,
    readOnly: true,
    request: ({ account_id, require_coverage }) => ({
      api: 'control',
      method: 'GET',
      path: '/report',
      query: { account_id, require_coverage: require_coverage?.join(',') },
    }),
  });
}
