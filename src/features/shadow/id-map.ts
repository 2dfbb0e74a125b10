/**
 * Resource ids differ between the upstream and the sandbox: the map pairs each upstream id (and
 * cursor) with the sandbox's, learnt from two answers to the same request, so that a later
 * request naming an upstream id (`GET /v4/transactions/{upstream id}`, a refund of it, a
 * cursor of its page) is replayed on the sandbox with the matching sandbox id.
 */

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The keys whose string values name a resource or a position: `id`, `*_id`, `*_cursor`. */
const isIdKey = (key: string): boolean => key === 'id' || key.endsWith('_id') || key.endsWith('_cursor');

export class IdMap {
  private readonly toSandbox = new Map<string, string>();
  private readonly toUpstream = new Map<string, string>();

  /** The sandbox's id for an upstream id, or undefined when none was learnt. */
  sandboxId(upstreamId: string): string | undefined {
    return this.toSandbox.get(upstreamId);
  }

  /** The upstream's id for a sandbox id, or undefined. */
  upstreamId(sandboxId: string): string | undefined {
    return this.toUpstream.get(sandboxId);
  }

  get size(): number {
    return this.toSandbox.size;
  }

  pair(upstream: string, sandbox: string): void {
    if (upstream === '' || sandbox === '') return;
    this.toSandbox.set(upstream, sandbox);
    this.toUpstream.set(sandbox, upstream);
  }

  /**
   * Learns the pairs of two answers to one request: the values of `id`, `*_id` and `*_cursor`
   * at the same place in both. A page's `items` are not paired by position (their order is
   * what a drift may change): their records were paired when they were created.
   */
  learn(upstream: unknown, sandbox: unknown): void {
    if (Array.isArray(upstream) && Array.isArray(sandbox)) {
      for (let i = 0; i < Math.min(upstream.length, sandbox.length); i += 1) this.learn(upstream[i], sandbox[i]);
      return;
    }
    if (!isRecord(upstream) || !isRecord(sandbox)) return;
    const page = Array.isArray(upstream.items) && 'next_cursor' in upstream;
    for (const [key, value] of Object.entries(upstream)) {
      if (!(key in sandbox) || (page && key === 'items')) continue;
      const other = sandbox[key];
      if (isIdKey(key) && typeof value === 'string' && typeof other === 'string') this.pair(value, other);
      else this.learn(value, other);
    }
  }

  /** `path` (with its query) with each segment and query value that is a known upstream id replaced by the sandbox's. */
  translatePath(path: string): string {
    const at = path.indexOf('?');
    const base = at < 0 ? path : path.slice(0, at);
    const segments = base.split('/').map((segment) => {
      const id = this.toSandbox.get(safeDecode(segment));
      return id === undefined ? segment : encodeURIComponent(id);
    });
    if (at < 0) return segments.join('/');
    const query = new URLSearchParams(path.slice(at + 1));
    let changed = false;
    for (const [name, value] of [...query]) {
      const id = this.toSandbox.get(value);
      if (id !== undefined) {
        query.set(name, id);
        changed = true;
      }
    }
    return `${segments.join('/')}?${changed ? query.toString() : path.slice(at + 1)}`;
  }

  /** A copy of a JSON body with every string that is a known upstream id replaced by the sandbox's. */
  translateBody(body: unknown): unknown {
    if (Array.isArray(body)) return body.map((v) => this.translateBody(v));
    if (isRecord(body)) return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, this.translateBody(v)]));
    if (typeof body === 'string') return this.toSandbox.get(body) ?? body;
    return body;
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The route of a request: its method and its path as a template, each id segment named after
 * the collection before it (`/v4/transactions/{transaction_id}/refunds`). A segment is an id
 * when the map knows it or when it looks like one (holds a digit and is at least 8 characters).
 */
export function routeOf(method: string, path: string, ids: IdMap): string {
  const base = path.split('?')[0]!;
  const segments = base.split('/');
  const template = segments.map((segment, i) => {
    if (i < 2 || segment === '') return segment;
    const decoded = safeDecode(segment);
    const idLike = ids.sandboxId(decoded) !== undefined || (/\d/.test(decoded) && decoded.length >= 8);
    if (!idLike) return segment;
    const collection = segments[i - 1] ?? 'resource';
    return `{${collection.replace(/-/g, '_').replace(/s$/, '')}_id}`;
  });
  return `${method.toUpperCase()} ${template.join('/')}`;
}
