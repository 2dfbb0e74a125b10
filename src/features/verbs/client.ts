/**
 * A small typed client of a running sandbox, shared by every verb: the control API
 * (`/_sandbox`), the account's own `/v4` calls, and the change feed. A refusal (an answer
 * outside 2xx) becomes `VerbFailure` with exit code 1 and the envelope's message; an
 * unreachable sandbox, or an answer that is not JSON, exit code 2.
 */
import type { z } from '@hono/zod-openapi';
import { controlHeaders, unreachableMessage } from '../../core/sandbox-client.js';
import type { AccountCredentials, Credentials } from '../accounts/index.js';
import type { ClockAdvanced } from '../sandbox/index.js';
import type { ControlSubscription } from '../subscriptions/index.js';
import type { ControlTransaction, Refund, TransactionDetail, transactionSchema } from '../transactions/index.js';
import type { Delivery, DeliverySummary } from '../webhooks/index.js';

/** Exit codes of every verb: done, refused by the sandbox, usage error or unreachable sandbox. */
export const VERB_EXIT = { ok: 0, refused: 1, usage: 2 } as const;
export type VerbExit = (typeof VERB_EXIT)[keyof typeof VERB_EXIT];

/** The option every command names the sandbox's address with. */
export const SANDBOX_URL_FLAG = '--sandbox-url';

/** A failure that ends a verb with exit code `code` after printing `message`. */
export class VerbFailure extends Error {
  constructor(
    message: string,
    readonly code: VerbExit,
  ) {
    super(message);
  }
}

/** A /v4 transaction record. */
export type Transaction = z.infer<typeof transactionSchema>;

/** A page of a control list. */
export interface ControlPage<T> {
  items: T[];
  limit: number;
  next_cursor: string | null;
  previous_cursor: string | null;
}

/** The error envelope as far as a verb prints it. */
interface Envelope {
  message?: string;
  details?: { location?: string; pointer?: string; message?: string }[];
}

/** The envelope's message and each detail, one per line. */
export function refusalMessage(status: number, answer: unknown): string {
  const envelope = (typeof answer === 'object' && answer !== null ? answer : {}) as Envelope;
  const lines = [`refused (${status}): ${envelope.message ?? JSON.stringify(answer)}`];
  for (const d of envelope.details ?? []) lines.push(`  ${`${d.location ?? ''}${d.pointer ?? ''}`}: ${d.message ?? ''}`.trimEnd());
  return lines.join('\n');
}

/** One server-sent event of the change feed: its name and its data. */
export interface StreamEvent {
  event: string;
  data: string;
}

interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
}

export class SandboxClient {
  constructor(
    readonly origin: string,
    private readonly adminToken: string | undefined,
  ) {}

  /** Calls `path` of the sandbox; the parsed answer, or `VerbFailure` (1 refused, 2 unreachable or not JSON). */
  async call<T>(method: 'GET' | 'POST', path: string, options: CallOptions = {}): Promise<T> {
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.origin}${path}`, {
        method,
        headers: { ...controlHeaders(this.adminToken, options.body !== undefined), ...options.headers },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        signal: AbortSignal.timeout(30_000),
      });
      text = await res.text();
    } catch (err) {
      throw new VerbFailure(unreachableMessage(this.origin, err, SANDBOX_URL_FLAG), VERB_EXIT.usage);
    }
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      throw new VerbFailure(`${method} ${this.origin}${path} answered ${res.status}: ${text.slice(0, 300)}`, VERB_EXIT.usage);
    }
    if (!res.ok) throw new VerbFailure(refusalMessage(res.status, answer), VERB_EXIT.refused);
    return answer as T;
  }

  credentials(): Promise<Credentials> {
    return this.call('GET', '/_sandbox/credentials');
  }

  /** The account `id`'s credentials, or the demo direct account's; exit 1 for an account the sandbox does not hold. */
  async account(id: string | undefined): Promise<AccountCredentials> {
    const { accounts } = await this.credentials();
    const found = id === undefined ? (accounts.find((a) => a.mode === 'direct') ?? accounts[0]) : accounts.find((a) => a.account_id === id);
    if (!found) throw new VerbFailure(`no account ${id ?? '(none)'} in the sandbox at ${this.origin}`, VERB_EXIT.refused);
    return found;
  }

  settle(id: string): Promise<ControlTransaction> {
    return this.call('POST', `/_sandbox/transactions/${encodeURIComponent(id)}/settle`);
  }

  fail(id: string): Promise<ControlTransaction> {
    return this.call('POST', `/_sandbox/transactions/${encodeURIComponent(id)}/fail`);
  }

  refund(id: string, amount?: number): Promise<Refund> {
    return this.call('POST', `/_sandbox/transactions/${encodeURIComponent(id)}/refund`, { body: amount === undefined ? {} : { amount } });
  }

  transaction(id: string): Promise<TransactionDetail> {
    return this.call('GET', `/_sandbox/transactions/${encodeURIComponent(id)}`);
  }

  deliveries(query: { limit?: number; accountId?: string }): Promise<ControlPage<DeliverySummary>> {
    const params = new URLSearchParams();
    if (query.limit !== undefined) params.set('limit', String(query.limit));
    if (query.accountId !== undefined) params.set('account_id', query.accountId);
    return this.call('GET', `/_sandbox/deliveries${params.size === 0 ? '' : `?${params}`}`);
  }

  delivery(id: string): Promise<Delivery> {
    return this.call('GET', `/_sandbox/deliveries/${encodeURIComponent(id)}`);
  }

  /** The account's clock (exit 1 when the sandbox holds no such account). */
  accountClock(accountId: string): Promise<{ now: string; offset_seconds: number }> {
    return this.call('GET', `/_sandbox/accounts/${encodeURIComponent(accountId)}/clock`);
  }

  /** Moves the account's own clock only, running its due work. */
  advanceAccountClock(accountId: string, seconds: number): Promise<ClockAdvanced> {
    return this.call('POST', `/_sandbox/accounts/${encodeURIComponent(accountId)}/clock/advance`, { body: { seconds } });
  }

  subscriptions(accountId: string): Promise<ControlPage<ControlSubscription>> {
    return this.call('GET', `/_sandbox/subscriptions?account_id=${encodeURIComponent(accountId)}&limit=100`);
  }

  /** A `/v4` call with the account's own API key. */
  v4<T>(account: AccountCredentials, method: 'GET' | 'POST', path: string, options: CallOptions = {}): Promise<T> {
    return this.call(method, `/v4${path}`, {
      ...options,
      headers: { authorization: `Bearer ${account.api_key}`, 'x-merchant-account-id': account.account_id, ...options.headers },
    });
  }

  /**
   * The change feed (`GET /_sandbox/events`) as server-sent events, until the sandbox ends it
   * or `signal` aborts. Exit 2 when it cannot be opened.
   */
  async *events(signal: AbortSignal): AsyncGenerator<StreamEvent> {
    let res: Response;
    try {
      res = await fetch(`${this.origin}/_sandbox/events`, {
        headers: { ...controlHeaders(this.adminToken), accept: 'text/event-stream' },
        signal,
      });
    } catch (err) {
      throw new VerbFailure(unreachableMessage(this.origin, err, SANDBOX_URL_FLAG), VERB_EXIT.usage);
    }
    if (!res.ok || !res.body) {
      const text = await res.text();
      let answer: unknown = text.slice(0, 300);
      try {
        answer = JSON.parse(text);
      } catch {}
      throw new VerbFailure(refusalMessage(res.status, answer), VERB_EXIT.refused);
    }
    const decoder = new TextDecoder();
    let buffered = '';
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffered += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const parsed = parseEventBlock(block);
          if (parsed) yield parsed;
        }
      }
    } catch (err) {
      if (signal.aborted) return;
      throw new VerbFailure(`the event stream of ${this.origin} broke: ${(err as Error).message}`, VERB_EXIT.refused);
    }
  }
}

/** One block of `text/event-stream` (lines up to a blank line) as its event name and data; undefined for a comment. */
export function parseEventBlock(block: string): StreamEvent | undefined {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || line === '') continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? undefined : { event, data: data.join('\n') };
}
