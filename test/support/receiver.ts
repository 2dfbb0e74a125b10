/** The tests' one webhook receiver: a merchant's server that verifies every signature. */
import { verify as cryptoVerify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_WEBHOOK_PUBLIC_KEY_PEM } from '../../src/core/credentials/demo-credentials.js';

export interface ReceivedWebhook {
  raw: string;
  body: unknown;
  headers: IncomingHttpHeaders;
  verified: boolean;
  path: string;
}

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** Decides the answer of each request (default: 200 {"code":"200","message":"SUCCESS"}). */
  respond: (n: number, hook: ReceivedWebhook) => { status: number; body: string; delayMs?: number };
  /** Resolves once `count` webhooks have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  /** Resolves with the first webhook (already received or still to come) that `match` accepts. */
  waitForMatch(match: (hook: ReceivedWebhook) => boolean, timeoutMs?: number): Promise<ReceivedWebhook>;
  /** `http://127.0.0.1:<port>` (`url` is its `/webhooks`). */
  origin: string;
  close(): Promise<void>;
}

export const ACK = { status: 200, body: JSON.stringify({ code: '200', message: 'SUCCESS' }) };

/** Verifies a webhook signature with node's crypto and the published public key. */
export function verifySignature(raw: string, signature: string | undefined, publicKeyPem = DEMO_WEBHOOK_PUBLIC_KEY_PEM): boolean {
  if (!signature) return false;
  return cryptoVerify('sha256', Buffer.from(raw, 'utf8'), publicKeyPem, Buffer.from(signature, 'base64'));
}

/** What a receiver does with a webhook, however it arrived: record it, answer it, wake the waiters. */
export interface Arrivals {
  receiver: Receiver;
  /** Records `hook` and returns the answer `respond` decides for it. */
  arrive(hook: ReceivedWebhook): { status: number; body: string; delayMs?: number };
}

/** The recording and waiting both receivers share; `close` is how the receiver stops. */
export function arrivals(origin: string, close: () => Promise<void>): Arrivals {
  const received: ReceivedWebhook[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const matchers: { match: (hook: ReceivedWebhook) => boolean; resolve: (hook: ReceivedWebhook) => void }[] = [];
  const receiver: Receiver = {
    url: `${origin}/webhooks`,
    origin,
    received,
    respond: () => ACK,
    waitForMatch(match, timeoutMs = 10_000) {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching webhook arrived')), timeoutMs);
        matchers.push({ match, resolve: (hook) => (clearTimeout(timer), resolve(hook)) });
      });
    },
    waitFor(count, timeoutMs = 10_000) {
      if (received.length >= count) return Promise.resolve(received.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${count} webhooks, got ${received.length}`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received.slice());
          },
        });
      });
    },
    close,
  };
  return {
    receiver,
    arrive(hook) {
      received.push(hook);
      const answer = receiver.respond(received.length, hook);
      for (const m of matchers.splice(0)) {
        if (m.match(hook)) m.resolve(hook);
        else matchers.push(m);
      }
      for (const w of waiters.splice(0)) {
        if (received.length >= w.count) w.resolve();
        else waiters.push(w);
      }
      return answer;
    },
  };
}

/** Parses a webhook's raw body and checks its signature as a merchant would. */
export function receivedWebhook(raw: string, headers: IncomingHttpHeaders, path: string, publicKeyPem: string): ReceivedWebhook {
  let body: unknown = null;
  try {
    body = JSON.parse(raw);
  } catch {
    body = null;
  }
  return { raw, body, headers, verified: verifySignature(raw, headers.signature as string | undefined, publicKeyPem), path };
}

/**
 * The merchant's server on 127.0.0.1, the webhook receiver of the socket tier: every POST is a
 * webhook, its signature verified with node's own `crypto.verify` and the published key
 * (never with the sandbox's signing code), answered as `respond` decides; a GET is a page the
 * customer lands on after the payment page (`/return`, `/cancel`). Without a socket, the same
 * receiver is `memory-receiver.ts`.
 */
export async function startReceiver(publicKeyPem = DEMO_WEBHOOK_PUBLIC_KEY_PEM): Promise<Receiver> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET') {
        const url = new URL(req.url ?? '/', 'http://merchant');
        const title = url.pathname === '/cancel' ? 'Payment cancelled' : 'Thank you for your order';
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><title>${title}</title><h1>${title}</h1><p id="query">${url.search.replace(/[<>&"]/g, '')}</p>`);
        return;
      }
      const answer = arrived.arrive(receivedWebhook(Buffer.concat(chunks).toString('utf8'), req.headers, req.url ?? '/', publicKeyPem));
      const send = (): void => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.body);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const arrived = arrivals(
    `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return arrived.receiver;
}

/** JSON body of a response, typed loosely for assertions. */
