/**
 * What the verbs print: a delivery list, a trigger's ids, and `tail`'s one line per `/v4`
 * request and per webhook attempt (text, or one JSON object a line).
 */
import { z } from 'zod';
import type { DeliverySummary } from '../webhooks/index.js';
import type { TriggerResult } from './trigger.js';

/** The text of `deliveries`: one line per delivery, newest first. */
export function formatDeliveries(deliveries: DeliverySummary[]): string {
  if (deliveries.length === 0) return 'no deliveries';
  return deliveries
    .map((d) => {
      const last = d.attempts[d.attempts.length - 1];
      const answer = last === undefined ? '-' : (last.error ?? String(last.response_status ?? '-'));
      return [
        d.id,
        d.created_at,
        `${d.kind} ${d.resource_id}`,
        d.state.padEnd(9),
        `attempts=${d.attempts_count}`,
        `last=${answer}`,
        d.url ?? '(no url)',
      ].join('  ');
    })
    .join('\n');
}

/** The text of `trigger`: the event, then each id it made, one per line. */
export function formatTrigger(r: TriggerResult): string {
  const lines = [`${r.event}: ${r.status} (account ${r.account_id})`];
  const ids: [string, string | undefined][] = [
    ['transaction', r.transaction_id],
    ['refund', r.refund_id],
    ['subscription', r.subscription_id],
    ['charge', r.charge_id],
  ];
  for (const [name, id] of ids) if (id !== undefined) lines.push(`  ${name.padEnd(12)} ${id}`);
  for (const id of r.delivery_ids) lines.push(`  ${'delivery'.padEnd(12)} ${id}`);
  return lines.join('\n');
}

/** A change of the feed, as `GET /_sandbox/events` sends it. */
const changeSchema = z.object({ type: z.string(), account_id: z.string().nullable(), at: z.string(), data: z.unknown() });

/** A `request.logged` change's data. */
const requestSchema = z.object({ id: z.number(), method: z.string(), path: z.string(), status: z.number(), duration_ms: z.number() });

/** A `delivery.attempted` change's data. */
const attemptSchema = z.object({
  id: z.string(),
  number: z.number(),
  ok: z.boolean(),
  status: z.number().nullable(),
  error: z.string().nullable().optional(),
  at: z.string(),
  kind: z.string(),
  resource_id: z.string(),
  url: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
});

/** One line of `tail`, before it is written as text or JSON. */
export type TailLine =
  | ({ type: 'request'; account_id: string | null; at: string } & z.infer<typeof requestSchema>)
  | ({ type: 'webhook'; account_id: string | null } & z.infer<typeof attemptSchema>);

/** The tail line of a change event's data, or undefined for a change `tail` does not show (or another account's). */
export function tailLine(data: string, accountId: string | undefined): TailLine | undefined {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return undefined;
  }
  const change = changeSchema.safeParse(json);
  if (!change.success) return undefined;
  const { type, account_id, at } = change.data;
  if (accountId !== undefined && account_id !== accountId) return undefined;
  if (type === 'request.logged') {
    const request = requestSchema.safeParse(change.data.data);
    return request.success ? { type: 'request', account_id, at, ...request.data } : undefined;
  }
  if (type === 'delivery.attempted') {
    const attempt = attemptSchema.safeParse(change.data.data);
    return attempt.success ? { type: 'webhook', account_id, ...attempt.data } : undefined;
  }
  return undefined;
}

/** A tail line as text: `<at> <METHOD> <path> <status> <ms>ms`, or `<at> webhook <kind> <id> -> <url> <result> (attempt n)`. */
export function formatTailLine(line: TailLine): string {
  const account = line.account_id === null ? '' : `  [${line.account_id}]`;
  if (line.type === 'request') return `${line.at} ${line.method} ${line.path} ${line.status} ${line.duration_ms}ms${account}`;
  const result = line.ok ? `delivered ${line.status ?? ''}`.trimEnd() : `failed ${line.error ?? line.status ?? ''}`.trimEnd();
  const retry = line.next_attempt_at === null ? '' : `, retry at ${line.next_attempt_at}`;
  return `${line.at} webhook ${line.kind} ${line.resource_id} -> ${line.url ?? '(no url)'} ${result} (attempt ${line.number}${retry}) delivery ${line.id}${account}`;
}
