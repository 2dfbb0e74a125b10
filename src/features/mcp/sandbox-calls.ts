/**
 * How the MCP server's tools reach a running sandbox: `/_sandbox` calls with the admin token
 * when there is one, and `/v4` creates with an account's own credentials (read once from
 * `GET /_sandbox/credentials`). Each call answers either the JSON the sandbox answered or a
 * refusal carrying the message of the spec's error envelope (or why the sandbox could not
 * be reached).
 */
import type { z } from '@hono/zod-openapi';
import { controlHeaders, unreachableMessage } from '../../core/sandbox-client.js';
import { errorSchema } from '../../core/http/schemas.js';
import { credentialsSchema, type AccountCredentials } from '../accounts/index.js';

/** Where the sandbox is and how to speak to its control API. */
export interface SandboxConnection {
  /** The sandbox's origin, without a trailing slash. */
  origin: string;
  /** The sandbox's `--admin-token`, if it has one. */
  adminToken?: string;
  /** The flag that names the origin, for the message of an unreachable sandbox. */
  flagName: string;
}

/** A query string's values; undefined ones are left out. */
export type QueryValues = Record<string, string | number | boolean | undefined>;

/** One call of a tool: a control call, or a create under `/v4` with an account's credentials. */
export type SandboxRequest =
  | { api: 'control'; method: 'GET' | 'POST'; path: string; query?: QueryValues; body?: unknown }
  | { api: 'v4'; accountId?: string; path: string; body: unknown; idempotencyKey?: string };

/** One detail of the spec's error envelope: where the request was wrong, and how. */
export type ErrorDetail = z.infer<typeof errorSchema>['details'][number];

/** What the sandbox answered: its JSON, or a refusal with its message (and its envelope, as sent, with its details when it sent one). */
export type SandboxAnswer =
  | { ok: true; status: number; body: unknown }
  | { ok: false; status?: number; message: string; details?: ErrorDetail[]; envelope?: unknown };

/** How long a call may take: an advance waits for the webhooks it queued. */
const CALL_TIMEOUT_MS = 120_000;

/** The calls of one connection; the accounts' credentials are kept once read. */
export class SandboxCalls {
  private readonly credentials = new Map<string, AccountCredentials>();
  private defaultAccount: AccountCredentials | undefined;

  constructor(private readonly connection: SandboxConnection) {}

  /** Sends `request`; never throws. */
  async send(request: SandboxRequest): Promise<SandboxAnswer> {
    try {
      if (request.api === 'control') return await this.control(request.method, request.path, request.query, request.body);
      const account = await this.account(request.accountId);
      if ('message' in account) return { ok: false, ...account };
      const headers: Record<string, string> = {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${account.api_key}`,
        'x-merchant-account-id': account.account_id,
      };
      if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
      return await this.fetchJson('POST', `/v4${request.path}`, headers, request.body);
    } catch (err) {
      return { ok: false, message: unreachableMessage(this.connection.origin, err, this.connection.flagName) };
    }
  }

  private control(method: 'GET' | 'POST', path: string, query: QueryValues = {}, body?: unknown): Promise<SandboxAnswer> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
    const target = `/_sandbox${path}${search.size === 0 ? '' : `?${search.toString().replace(/%2C/g, ',')}`}`;
    const headers = controlHeaders(this.connection.adminToken, body !== undefined);
    return this.fetchJson(method, target, headers, body);
  }

  /** The credentials of `accountId`, or of the demo direct-mode account without one. */
  private async account(accountId: string | undefined): Promise<AccountCredentials | { status?: number; message: string }> {
    const known = accountId === undefined ? this.defaultAccount : this.credentials.get(accountId);
    if (known !== undefined) return known;
    const answer = await this.control('GET', '/credentials');
    if (!answer.ok) return answer;
    const parsed = credentialsSchema.safeParse(answer.body);
    if (!parsed.success) return { message: 'GET /_sandbox/credentials answered something other than the credentials' };
    for (const account of parsed.data.accounts) this.credentials.set(account.account_id, account);
    this.defaultAccount = parsed.data.accounts.find((a) => a.name === 'direct') ?? parsed.data.accounts[0];
    const found = accountId === undefined ? this.defaultAccount : this.credentials.get(accountId);
    return (
      found ?? {
        message: `no merchant account ${accountId ?? '(none)'} in GET /_sandbox/credentials: give the account_id of a demo account or of one made by POST /_sandbox/accounts`,
      }
    );
  }

  private async fetchJson(method: 'GET' | 'POST', target: string, headers: Record<string, string>, body?: unknown): Promise<SandboxAnswer> {
    const res = await fetch(`${this.connection.origin}${target}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const text = await res.text();
    let json: unknown = undefined;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      // not JSON: the text is the message
    }
    if (res.ok)
      return json === undefined
        ? { ok: false, status: res.status, message: `${method} ${target} answered ${res.status} with no JSON` }
        : { ok: true, status: res.status, body: json };
    const envelope = errorSchema.safeParse(json);
    if (envelope.success)
      return { ok: false, status: res.status, message: envelope.data.message, details: envelope.data.details, envelope: json };
    return { ok: false, status: res.status, message: `${method} ${target} answered ${res.status}: ${text.slice(0, 300)}` };
  }
}
