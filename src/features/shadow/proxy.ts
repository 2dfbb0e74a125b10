/**
 * The shadow proxy on its socket: `/v4` requests go to the upstream and their answers back to
 * the app as they came (status, headers, bytes), while the session replays each against the
 * in-process sandbox; `GET /_sandbox/shadow` answers the report, `POST /_sandbox/shadow/webhooks`
 * takes the sandbox side's webhooks, and everything else (the sandbox's control API, its panel,
 * `/_sandbox/health`) is passed to the in-process sandbox. With a webhook port, a second socket
 * takes the upstream's webhooks, compares each with the sandbox's and forwards it to the app's
 * own `notification_url` for that payment.
 */
import { appendFileSync, createWriteStream, type WriteStream } from 'node:fs';
import {
  Agent as HttpAgent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { SandboxError } from '../../core/domain/errors.js';
import { errorBody } from '../../core/http/errors.js';
import { recordingLine } from './recording.js';
import { parseBody, ShadowSession, type ShadowAnswer, type ShadowMode, type ShadowRequest } from './shadow.js';
import type { ShadowReport } from './shadow-report.js';

/** The most of an upstream answer that is compared (the conformance kit reads as much); the app gets it all. */
const COMPARED_BYTES = 1024 * 1024;
/** How long `GET /_sandbox/shadow` waits for the exchanges still being replayed. */
const REPORT_WAIT_MS = 10_000;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade', 'transfer-encoding']);
const ACK = JSON.stringify({ code: '200', message: 'SUCCESS' });

/** The in-process sandbox the proxy compares with (`startSandbox` of the package). */
export interface InProcessSandbox {
  /** Its origin on a loopback port. */
  url: string;
  accounts: readonly { mode: string; account_id: string; api_key: string }[];
  stop(): Promise<void>;
}

export interface ShadowOptions {
  /** The upstream's base URL, ending in `/v4`. */
  upstream: string;
  /** The upstream credentials: the app's requests carrying them are signed as the sandbox account of the same mode. */
  apiKey: string;
  accountId: string;
  /** Default 0 (a free port). */
  port?: number;
  host?: string;
  /** Append one JSON line per exchange to this file. */
  record?: string;
  /** Listen for the upstream's webhooks on this port (0: a free one). */
  webhookPort?: number;
  /** Where an upstream webhook goes once compared, unless the app gave its payment a `notification_url` (the app's webhook handler). */
  forwardWebhooksTo?: string;
}

export interface RunningShadow {
  /** The proxy's origin: the app's base URL is `${url}/v4`. */
  url: string;
  port: number;
  /** The webhook endpoint's origin, when `webhookPort` was given. */
  webhookUrl: string | null;
  /** Resolves with the report once every exchange so far was compared. */
  report(): Promise<ShadowReport>;
  stop(): Promise<void>;
}

/** The proxy could not start: the upstream cannot be reached or refuses the credentials. */
export class ShadowStartError extends Error {
  override name = 'ShadowStartError';
}

function collect(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}

function headerRecord(msg: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(msg.headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** The compared body of an answer: decoded (gzip, deflate, br) and parsed as JSON when it is JSON. */
function answerBody(bytes: Buffer, encoding: string | undefined, truncated: boolean): unknown {
  if (truncated) return `an answer larger than ${COMPARED_BYTES} bytes`;
  let text: Buffer = bytes;
  try {
    if (encoding === 'gzip') text = gunzipSync(bytes, { maxOutputLength: COMPARED_BYTES });
    else if (encoding === 'deflate') text = inflateSync(bytes, { maxOutputLength: COMPARED_BYTES });
    else if (encoding === 'br') text = brotliDecompressSync(bytes, { maxOutputLength: COMPARED_BYTES });
  } catch {
    return `an answer whose ${encoding} body could not be decoded within ${COMPARED_BYTES} bytes`;
  }
  return parseBody(text.toString('utf8'));
}

function sendEnvelope(res: ServerResponse, err: SandboxError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(errorBody(err));
  res.writeHead(err.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}

/** Checks the upstream answers and takes the credentials (a 401 to a first read is refused). */
async function probeUpstream(base: string, apiKey: string, accountId: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(`${base}/transactions?limit=1`, {
      headers: { authorization: `Bearer ${apiKey}`, 'x-merchant-account-id': accountId },
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new ShadowStartError(`cannot reach the upstream at ${base} (${cause?.code ?? cause?.message ?? String(err)}) (--upstream)`);
  }
  await res.body?.cancel();
  if (res.status === 401 || res.status === 403)
    throw new ShadowStartError(`the upstream refused the credentials (${res.status}): check --api-key and --account-id`);
}

/** Starts the proxy in front of `options.upstream`, with the sandbox `startSandbox` starts in this process. */
export async function startShadow(
  options: ShadowOptions,
  startSandbox: (options: { notificationUrl: string }) => Promise<InProcessSandbox>,
): Promise<RunningShadow> {
  const upstreamBase = new URL(options.upstream.replace(/\/+$/, ''));
  const base = upstreamBase.toString().replace(/\/+$/, '');
  await probeUpstream(base, options.apiKey, options.accountId);
  const secure = upstreamBase.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  // The sandbox starts once the proxy listens (its webhooks go to the proxy); requests wait for it.
  let sandbox!: InProcessSandbox;
  let started = false;
  let sandboxStarted!: () => void;
  const gate = new Promise<void>((resolve) => (sandboxStarted = resolve));
  const host = options.host ?? '127.0.0.1';
  let recording: WriteStream | null = null;
  if (options.record !== undefined) {
    // a file that cannot be written stops the start, not the proxy later
    try {
      appendFileSync(options.record, '');
    } catch (err) {
      throw new ShadowStartError(`cannot write --record ${options.record}: ${(err as Error).message.split('\n')[0]}`);
    }
    recording = createWriteStream(options.record, { flags: 'a' });
    recording.on('error', () => undefined); // a disk that fills up later loses lines, not the app's answers
  }
  let proxyUrl = '';

  const accountOf = (mode: ShadowMode): { apiKey: string; accountId: string } => {
    const account = sandbox.accounts.find((a) => a.mode === mode);
    if (!account) throw new Error(`the sandbox has no ${mode} account`);
    return { apiKey: account.api_key, accountId: account.account_id };
  };

  const session = new ShadowSession({
    upstream: base,
    apiKey: options.apiKey,
    accountId: options.accountId,
    sandboxWebhookUrl: '', // set once listening
    sandbox: {
      account: accountOf,
      async send(request: ShadowRequest): Promise<ShadowAnswer> {
        const res = await fetch(sandbox.url + request.path, {
          method: request.method,
          headers: request.headers,
          body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
        });
        const text = await res.text();
        return { status: res.status, headers: headersOf(res.headers), body: parseBody(text) };
      },
    },
    ...(recording ? { record: (exchange) => void recording.write(`${recordingLine(exchange)}\n`) } : {}),
  });

  /** One /v4 request: to the upstream, the answer piped back as it came; the session gets both. */
  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await collect(req);
    const path = req.url ?? '/v4';
    const request: ShadowRequest = {
      method: req.method ?? 'GET',
      path,
      headers: headerRecord(req),
      body: body.length > 0 ? body.toString('utf8') : undefined,
    };
    const headers: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      const lower = name.toLowerCase();
      if (lower === 'host' || HOP_BY_HOP.has(lower)) continue;
      headers.push(name, req.rawHeaders[i + 1]!);
    }
    headers.push('Host', upstreamBase.host);
    const answer = new Promise<ShadowAnswer>((resolve, reject) => {
      const send = secure ? httpsRequest : httpRequest;
      const out = send(
        {
          protocol: upstreamBase.protocol,
          hostname: upstreamBase.hostname,
          port: upstreamBase.port,
          method: request.method,
          path: upstreamBase.pathname.replace(/\/+$/, '') + path.slice('/v4'.length),
          headers,
          agent,
        },
        (up) => {
          const rawHeaders: string[] = [];
          for (let i = 0; i < up.rawHeaders.length; i += 2)
            if (!HOP_BY_HOP.has(up.rawHeaders[i]!.toLowerCase())) rawHeaders.push(up.rawHeaders[i]!, up.rawHeaders[i + 1]!);
          res.writeHead(up.statusCode ?? 502, up.statusMessage, rawHeaders);
          const chunks: Buffer[] = [];
          let size = 0;
          up.on('data', (chunk: Buffer) => {
            res.write(chunk);
            size += chunk.length;
            if (size <= COMPARED_BYTES) chunks.push(chunk);
          });
          up.on('end', () => {
            res.end();
            const bytes = Buffer.concat(chunks);
            resolve({
              status: up.statusCode ?? 502,
              headers: headerRecord(up),
              body: answerBody(bytes, up.headers['content-encoding'], size > COMPARED_BYTES),
            });
          });
          up.on('error', (err) => {
            res.destroy();
            reject(err);
          });
        },
      );
      out.on('error', (err) => {
        sendEnvelope(res, new SandboxError(502, 'server_error', `The upstream ${base} did not answer: ${err.message}`));
        reject(err);
      });
      out.end(body);
    });
    session.observe(request, answer);
    await answer.catch(() => undefined);
  }

  /** Anything else: passed to the in-process sandbox, streamed both ways. */
  function passThrough(req: IncomingMessage, res: ServerResponse): void {
    const target = new URL(sandbox.url);
    const out = httpRequest(
      { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', (err) =>
      sendEnvelope(res, new SandboxError(502, 'server_error', `The in-process sandbox did not answer: ${err.message}`)),
    );
    req.pipe(out);
  }

  async function report(): Promise<ShadowReport> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([session.idle(), new Promise((resolve) => (timer = setTimeout(resolve, REPORT_WAIT_MS)))]);
    clearTimeout(timer);
    return session.report();
  }

  const reply = (res: ServerResponse, status: number, text: string): void => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };

  const server: Server = createServer((req, res) => {
    if (started) handle(req, res);
    else void gate.then(() => handle(req, res));
  });

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    const done = (p: Promise<void>): void =>
      void p.catch((err: unknown) => sendEnvelope(res, new SandboxError(500, 'server_error', (err as Error).message)));
    if (path === '/v4' || path.startsWith('/v4/')) return done(forward(req, res));
    if (path === '/_sandbox/shadow' && req.method === 'GET') return done(report().then((r) => reply(res, 200, JSON.stringify(r))));
    if (path === '/_sandbox/shadow/webhooks' && req.method === 'POST')
      return done(
        collect(req).then((bytes) => {
          session.webhook('sandbox', parseBody(bytes.toString('utf8')));
          reply(res, 200, ACK);
        }),
      );
    passThrough(req, res);
  }

  let webhookServer: Server | null = null;
  let webhookPort: number | null = null;
  if (options.webhookPort !== undefined) {
    webhookServer = createServer((req, res) => {
      void collect(req).then(async (bytes) => {
        const appTarget = req.method === 'POST' ? session.webhook('upstream', parseBody(bytes.toString('utf8'))) : undefined;
        const appUrl = appTarget ?? options.forwardWebhooksTo;
        // the app's notification_url may be this endpoint itself: then there is nowhere further to send it
        if (appUrl === undefined || isOwnEndpoint(appUrl)) return reply(res, 200, ACK);
        const headers = Object.fromEntries(
          Object.entries(headerRecord(req)).filter(([k]) => k !== 'host' && k !== 'content-length' && !HOP_BY_HOP.has(k)),
        );
        try {
          const answer = await fetch(appUrl, { method: 'POST', headers, body: new Uint8Array(bytes) });
          const text = await answer.text();
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
          res.end(text);
        } catch (err) {
          sendEnvelope(res, new SandboxError(502, 'server_error', `The app's notification_url did not answer: ${(err as Error).message}`));
        }
      });
    });
  }

  /** Whether `url` is the webhook endpoint (any loopback name of its port, or its own host). */
  const isOwnEndpoint = (url: string): boolean => {
    if (!URL.canParse(url) || webhookPort === null) return false;
    const target = new URL(url);
    const loopback = ['127.0.0.1', 'localhost', '[::1]', '0.0.0.0', host].includes(target.hostname);
    return loopback && Number(target.port || (target.protocol === 'https:' ? 443 : 80)) === webhookPort;
  };

  const listen = (s: Server, port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, host, () => resolve((s.address() as AddressInfo).port));
    });
  let port: number;
  try {
    port = await listen(server, options.port ?? 0);
    if (webhookServer) webhookPort = await listen(webhookServer, options.webhookPort ?? 0);
  } catch (err) {
    server.close();
    webhookServer?.close();
    throw err;
  }
  const shown = host.includes(':') ? `[${host}]` : host;
  proxyUrl = `http://${shown}:${port}`;
  const sandboxWebhooks = `${proxyUrl}/_sandbox/shadow/webhooks`;
  session.setSandboxWebhookUrl(sandboxWebhooks);
  try {
    sandbox = await startSandbox({ notificationUrl: sandboxWebhooks });
  } catch (err) {
    server.close();
    webhookServer?.close();
    throw err;
  }
  started = true;
  sandboxStarted();

  const close = (s: Server | null): Promise<void> =>
    new Promise((resolve) => {
      if (!s) return resolve();
      s.close(() => resolve());
      s.closeIdleConnections();
    });
  let stopping: Promise<void> | undefined;
  return {
    url: proxyUrl,
    port,
    webhookUrl: webhookPort === null ? null : `http://${shown}:${webhookPort}`,
    report,
    stop() {
      stopping ??= (async () => {
        await Promise.all([close(server), close(webhookServer)]);
        await report();
        agent.destroy();
        await sandbox.stop();
        if (recording) await new Promise<void>((resolve) => recording.end(() => resolve()));
      })();
      return stopping;
    },
  };
}
