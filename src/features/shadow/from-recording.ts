/**
 * `payment-sandbox fixtures from-recording FILE`: a recording (`--record`) turned into a
 * fixtures document that recreates, offline, the payments and refunds the upstream created
 * for the recorded requests and the outcome each payment last had: each create answered 2xx
 * becomes a `transaction` fixture (its recorded body; a card masked in the recording becomes a
 * card no scenario rule matches, and `then` settles or fails it as the upstream's last answer
 * about it said), each refund answered 2xx a `refund` fixture of it with the refunded amount.
 * Replays of one create (an idempotent retry) are one fixture; requests answered with an error
 * created nothing and make none.
 */
import type { Fixture, FixtureFile } from '../fixtures/index.js';
import { recordingLineSchema, type RecordingLine } from './recording.js';

/** The card a recreated payment uses: no default scenario rule matches it, so it waits for `then`. */
const NEUTRAL_CARD = '4111111111111111';

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A recording line that is not one: its line number and why. */
export class RecordingError extends Error {
  override name = 'RecordingError';
}

/** Parses a recording (JSON lines; blank lines ignored). */
export function parseRecording(text: string): RecordingLine[] {
  const lines: RecordingLine[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new RecordingError(`line ${i + 1} is not JSON`);
    }
    const parsed = recordingLineSchema.safeParse(json);
    if (!parsed.success)
      throw new RecordingError(`line ${i + 1} is not a recorded exchange: ${parsed.error.issues[0]?.message ?? 'bad shape'}`);
    lines.push(parsed.data);
  });
  return lines;
}

/** Every record (an object with an `id` and a `status`) in an answer, with the records inside it. */
function recordsIn(value: unknown, out: { id: string; status: string }[] = []): { id: string; status: string }[] {
  if (Array.isArray(value)) value.forEach((v) => recordsIn(v, out));
  else if (isRecord(value)) {
    if (typeof value.id === 'string' && typeof value.status === 'string') out.push({ id: value.id, status: value.status });
    Object.values(value).forEach((v) => recordsIn(v, out));
  }
  return out;
}

/** The recorded create body with a card the recording masked replaced by one no rule settles, and a security code. */
function replayableBody(body: Record<string, unknown>): Record<string, unknown> {
  const method = body.payment_method;
  if (!isRecord(method) || method.type !== 'card' || typeof method.number !== 'string') return body;
  return { ...body, payment_method: { ...method, number: NEUTRAL_CARD, security_code: '123' } };
}

const ok = (status: number): boolean => status >= 200 && status < 300;
const pathOf = (line: RecordingLine): string => line.request.path.split('?')[0]!.replace(/\/+$/, '');

/** The fixtures document that recreates a recording's payments, refunds and outcomes. */
export function fixturesFromRecording(lines: RecordingLine[]): FixtureFile {
  const fixtures: Fixture[] = [];
  const names = new Map<string, Fixture>(); // upstream transaction id -> its fixture
  const created = new Set<string>(); // ids already recreated (a replayed create or refund)
  const lastStatus = new Map<string, string>();
  let checkout = false;
  for (const line of lines) {
    const { request, response } = line;
    const body = response.body;
    for (const record of recordsIn(body)) lastStatus.set(record.id, record.status);
    if (request.method !== 'POST' || !ok(response.status) || !isRecord(body) || typeof body.id !== 'string' || created.has(body.id))
      continue;
    const path = pathOf(line);
    if (path === '/v4/transactions' && isRecord(request.body)) {
      created.add(body.id);
      if (typeof body.payment_url === 'string') checkout = true;
      const fixture: Fixture = {
        name: `payment_${names.size + 1}`,
        account: 'direct',
        create: 'transaction',
        body: replayableBody(request.body),
      };
      names.set(body.id, fixture);
      fixtures.push(fixture);
      continue;
    }
    const refund = /^\/v4\/transactions\/([^/]+)\/refunds$/.exec(path);
    const payment = refund ? names.get(decodeURIComponent(refund[1]!)) : undefined;
    if (payment !== undefined) {
      created.add(body.id);
      const amount = typeof body.amount === 'number' ? { amount: body.amount } : {};
      const rest = isRecord(request.body) ? request.body : {};
      fixtures.push({
        name: `${payment.name}_refund_${fixtures.filter((f) => f.create === 'refund' && f.name.startsWith(`${payment.name}_`)).length + 1}`,
        account: 'direct',
        create: 'refund',
        body: { ...rest, ...amount, transaction_id: `\${${payment.name}.id}` },
      });
    }
  }
  for (const [id, fixture] of names) {
    const status = lastStatus.get(id);
    if (status === 'SUCCEEDED') fixture.then = 'settle';
    else if (status === 'FAILED') fixture.then = 'fail';
  }
  for (const fixture of fixtures) fixture.account = checkout ? 'checkout' : 'direct';
  return { fixtures };
}
