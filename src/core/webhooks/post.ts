/**
 * One webhook POST over node:http / node:https, with keep-alive connections reused per origin
 * (an undici `fetch` per delivery cost several times the CPU: web streams, Request objects,
 * header guards). What `fetch` did and the dispatcher relies on is kept: redirects are never
 * followed (a 3xx is the answer), the whole attempt (connect, request, answer) has one time
 * limit, the answer is read up to `MAX_READ_RESPONSE` bytes (the rest is not read), and a
 * gzip, deflate or br answer is decoded before it is judged. TLS certificates are verified.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { ConnectGuard } from './targets.js';

/** The most of a merchant's answer read to judge it: a larger acknowledgement is still judged whole up to here. */
export const MAX_READ_RESPONSE = 1024 * 1024;

/** A merchant's answer: its status and text (at most `MAX_READ_RESPONSE` bytes); `whole` tells whether it all fitted. */
export interface PostAnswer {
  status: number;
  text: string;
  whole: boolean;
}

/** The headers sent with every webhook besides the delivery's own: those undici's `fetch` added, as before. */
const COMMON_HEADERS = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
} as const;

/** An attempt that ran out of time: `name` is `TimeoutError`, as `AbortSignal.timeout` made it. */
export class PostTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs / 1000} s`);
  }
}

/** A connection the target guard refused (targets.ts): nothing was sent. */
export class TargetRefusedError extends Error {
  override readonly name = 'TargetRefusedError';
  constructor(reason: string) {
    super(`target refused: ${reason}; the merchant was not contacted`);
  }
}

/** A DNS lookup whose every answer must pass `guard` for `port`: the address connected to is the one checked. */
function guardedLookup(guard: ConnectGuard, port: number): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      for (const a of addresses) {
        const reason = guard(a.address, port);
        if (reason !== null) return callback(new TargetRefusedError(reason), '', 0);
      }
      if (options.all) (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
      else if (addresses[0]) callback(null, addresses[0].address, addresses[0].family);
      else callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
    });
  };
}

/** How long an idle kept-alive connection is kept (a server's shorter `Keep-Alive: timeout` wins). */
const IDLE_SOCKET_MS = 4_000;

export interface WebhookPoster {
  /**
   * POSTs `body` to `url` with `headers`; rejects on a network error or `PostTimeoutError`.
   * `method` GET reads a page under the same guard and limits (check-webhooks' state URL).
   */
  post(url: string, headers: Record<string, string>, body: string, method?: 'POST' | 'GET'): Promise<PostAnswer>;
  /** Closes the idle kept-alive connections (on shutdown). */
  close(): void;
  /** Cuts every POST under way: each rejects with `PostAbortedError` (on shutdown). */
  abort(): void;
}

/** A POST cut by `abort()` (the sandbox is stopping): not the merchant's failure. */
export class PostAbortedError extends Error {
  override readonly name = 'PostAbortedError';
  constructor() {
    super('the sandbox is stopping');
  }
}

/**
 * A poster whose connections are pooled per origin (host and port; node's agents key their
 * pools so), at most `maxFreePerOrigin` of them kept idle. How many requests run at once is
 * bounded by the caller (the dispatcher's lanes), not here: a bound per origin would make two
 * URLs on one server wait for each other.
 */
export function createPoster(options: {
  timeoutMs: number;
  maxFreePerOrigin: number;
  /** Checked against every address connected to (written in the URL or resolved); a refusal rejects with `TargetRefusedError`. */
  guard?: ConnectGuard;
}): WebhookPoster {
  const { timeoutMs } = options;
  const agentOptions = { keepAlive: true, maxFreeSockets: options.maxFreePerOrigin, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' as const };
  const http = new HttpAgent(agentOptions);
  const https = new HttpsAgent(agentOptions);
  const underWay = new Set<{ destroy(err: Error): unknown }>();
  return {
    post(url, headers, body, method = 'POST') {
      return new Promise<PostAnswer>((resolve, reject) => {
        let target: URL;
        try {
          target = new URL(url);
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        if (target.username || target.password) {
          reject(new Error(`Request cannot be constructed from a URL that includes credentials: ${url}`));
          return;
        }
        const secure = target.protocol === 'https:';
        if (!secure && target.protocol !== 'http:') {
          reject(new Error(`unsupported URL scheme ${target.protocol}`));
          return;
        }
        const port = target.port ? Number(target.port) : secure ? 443 : 80;
        const { guard } = options;
        const literal = target.hostname.replace(/^\[|\]$/g, '');
        const refused = guard && isIP(literal) ? guard(literal, port) : null;
        if (refused !== null) {
          reject(new TargetRefusedError(refused));
          return;
        }
        let settled = false;
        const finish = (err: Error | null, answer?: PostAnswer): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          underWay.delete(req);
          if (err) reject(err);
          else resolve(answer!);
        };
        const send = secure ? httpsRequest : httpRequest;
        const req = send(
          target,
          {
            method,
            agent: secure ? https : http,
            ...(guard ? { lookup: guardedLookup(guard, port) } : {}),
            headers: {
              host: target.host,
              connection: 'keep-alive',
              ...headers,
              ...COMMON_HEADERS,
              'content-length': String(Buffer.byteLength(body, 'utf8')),
            },
          },
          (res) => {
            readAnswer(res, (err, text, whole) => {
              if (err) finish(err);
              else finish(null, { status: res.statusCode ?? 0, text, whole });
            });
          },
        );
        const timer = setTimeout(() => {
          const err = new PostTimeoutError(timeoutMs);
          finish(err);
          req.destroy(err);
        }, timeoutMs);
        req.on('error', (err) => finish(err));
        underWay.add(req);
        req.end(body, 'utf8');
      });
    },
    close() {
      http.destroy();
      https.destroy();
    },
    abort() {
      for (const req of [...underWay]) req.destroy(new PostAbortedError());
    },
  };
}

/** Decodes the answer as `fetch` did: gzip, deflate and br; anything else is read as it came. */
function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return res.pipe(createGunzip());
  if (encoding === 'deflate') return res.pipe(createInflate());
  if (encoding === 'br') return res.pipe(createBrotliDecompress());
  return res;
}

/** Reads an answer up to `MAX_READ_RESPONSE` bytes; past that it stops reading and drops the connection. */
function readAnswer(res: IncomingMessage, done: (err: Error | null, text: string, whole: boolean) => void): void {
  const stream = decoded(res);
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  const end = (err: Error | null, whole: boolean): void => {
    if (ended) return;
    ended = true;
    done(err, err ? '' : Buffer.concat(chunks).toString('utf8'), whole);
  };
  stream.on('data', (chunk: Buffer) => {
    if (ended) return;
    size += chunk.byteLength;
    if (size > MAX_READ_RESPONSE) {
      end(null, false);
      res.destroy(); // the rest is not read: the connection is not reused
      if (stream !== res) stream.destroy();
      return;
    }
    chunks.push(chunk);
  });
  stream.on('end', () => end(null, true));
  stream.on('error', (err) => end(err, false));
  if (stream !== res) res.on('error', (err) => end(err, false));
}
