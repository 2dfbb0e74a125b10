/**
 * How one exchange's two answers are compared: with the conformance kit's normaliser (ids,
 * times, cursors and URLs become their JSON type; statuses, error codes and pointers, field
 * sets and JSON types stay) and its rule for pages (a page counts only the records created
 * through the proxy, its `next_cursor` only where more of them than its limit exist), then the
 * order of those records on a page, through the id map.
 */
import { controlledBody, diffShapes, normalise, type Exchange } from '../conformance/index.js';
import type { IdMap } from './id-map.js';
import type { DifferenceKind, ShadowDifference } from './shadow-report.js';

/** One side's answer: its HTTP status, headers (lower-case names) and body (parsed JSON, else the text). */
export interface ShadowAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const JSON_TYPES = new Set(['integer', 'number', 'string', 'boolean', 'null', 'array', 'object']);

/** The kind of a difference the normaliser found at `pointer`. */
export function kindOf(pointer: string, upstream: unknown, sandbox: unknown): DifferenceKind {
  if (pointer === '/status') return 'status';
  if (pointer === '/body/code' || pointer.startsWith('/body/details')) return 'error';
  if (upstream === 'missing' || sandbox === 'missing') return 'field';
  if (/^\/body\/items$/.test(pointer) && typeof upstream === 'string' && upstream.startsWith('array of')) return 'page_size';
  if (typeof upstream === 'string' && typeof sandbox === 'string' && JSON_TYPES.has(upstream) && JSON_TYPES.has(sandbox)) return 'type';
  if (typeof upstream === 'string' && JSON_TYPES.has(upstream) !== (typeof sandbox === 'string' && JSON_TYPES.has(sandbox))) return 'type';
  return 'value';
}

/**
 * The records each side created through the proxy so far, as the kit's exchanges (a `POST`
 * answered 2xx with an `id`): what `controlledBody` counts a page against.
 */
export class CreatedRecords {
  private readonly own: Exchange[] = [];
  private readonly seen = new Set<string>();

  note(method: string, path: string, answer: ShadowAnswer): void {
    const body = answer.body;
    if (method !== 'POST' || answer.status < 200 || answer.status >= 300 || !isRecord(body) || typeof body.id !== 'string') return;
    if (this.seen.has(body.id)) return;
    this.seen.add(body.id);
    this.own.push({ request: { method, path }, response: { status: answer.status, headers: {}, body: { id: body.id } } });
  }

  /** What the proxy controls of `answer`: a page keeps only these records (the kit's rule). */
  controlled(answer: ShadowAnswer, method: string, path: string): unknown {
    const exchanges: Exchange[] = [...this.own, { request: { method, path }, response: { ...answer } }];
    return controlledBody(exchanges, this.own.length);
  }
}

export interface ExchangeContext {
  exchange: number;
  route: string;
  request: string;
}

const itemIds = (body: unknown): string[] =>
  isRecord(body) && Array.isArray(body.items)
    ? body.items.map((item) => (isRecord(item) && typeof item.id === 'string' ? item.id : ''))
    : [];

/**
 * The sandbox's page with its records in the upstream page's order, each matched through the
 * id map; the page as it is when the two do not hold the same records.
 */
function alignedPage(upstream: unknown, sandbox: unknown, ids: IdMap): unknown {
  if (!isRecord(upstream) || !isRecord(sandbox) || !Array.isArray(sandbox.items)) return sandbox;
  const upIds = itemIds(upstream);
  const byId = new Map(sandbox.items.map((item, i) => [itemIds(sandbox)[i]!, item]));
  const aligned = upIds.map((id) => byId.get(ids.sandboxId(id) ?? ''));
  if (aligned.length !== sandbox.items.length || aligned.some((item) => item === undefined)) return sandbox;
  return { ...sandbox, items: aligned };
}

/** Where the upstream's and the sandbox's answers to one request differ. */
export function compareAnswers(
  upstream: ShadowAnswer,
  sandbox: ShadowAnswer,
  sides: { upstream: CreatedRecords; sandbox: CreatedRecords },
  ids: IdMap,
  method: string,
  path: string,
  context: ExchangeContext,
): ShadowDifference[] {
  const up = sides.upstream.controlled(upstream, method, path);
  const sb = sides.sandbox.controlled(sandbox, method, path);
  const shapeUp = { status: upstream.status, body: normalise(up) };
  // a page's records are compared with their counterparts (their order is compared below)
  const shapeSb = { status: sandbox.status, body: normalise(alignedPage(up, sb, ids)) };
  const out: ShadowDifference[] = diffShapes(shapeUp, shapeSb).map((d) => ({
    ...context,
    kind: kindOf(d.pointer, d.left, d.right),
    pointer: d.pointer,
    upstream: d.left,
    sandbox: d.right,
  }));
  // The order of the proxy's own records on a page: the shapes alike, the records in another order.
  const upIds = itemIds(up);
  const sbIds = itemIds(sb);
  if (upIds.length > 0 && upIds.length === sbIds.length) {
    upIds.forEach((id, i) => {
      const expected = ids.sandboxId(id);
      if (expected !== undefined && expected !== sbIds[i])
        out.push({
          ...context,
          kind: 'order',
          pointer: `/body/items/${i}/id`,
          upstream: id,
          sandbox: ids.upstreamId(sbIds[i]!) ?? sbIds[i],
        });
    });
  }
  return out;
}

/** Where two webhooks of the same event differ in shape (the kit's normaliser over both bodies). */
export function compareWebhooks(upstream: unknown, sandbox: unknown, route: string): ShadowDifference[] {
  return diffShapes({ body: normalise(upstream) }, { body: normalise(sandbox) }).map((d) => ({
    kind: 'webhook' as const,
    route,
    request: route,
    exchange: 0,
    pointer: d.pointer,
    upstream: d.left,
    sandbox: d.right,
  }));
}
