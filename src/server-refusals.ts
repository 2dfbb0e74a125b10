/**
 * Requests refused before the app sees them, answered with the spec's error envelope like any
 * other refusal: a `Host` the request URL cannot be built from (`localhost:abc`, a
 * space), a target that is not a path (`OPTIONS *`), and an `Expect` other than
 * `100-continue` (417). Without this, @hono/node-server and Node answered an empty 400 or 417.
 * `envelopedServer` is handed to @hono/node-server's `serve` as its `createServer`.
 */
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { RequestError, getRequestListener } from '@hono/node-server';
import { SandboxError } from './core/domain/errors.js';
import { errorBody } from './core/http/errors.js';

type Fetch = Parameters<typeof getRequestListener>[0];

const envelope = (r: SandboxError): string => JSON.stringify(errorBody(r));

/** Whether a `Host` header value is one a URL can be built from (a name or an address, an optional numeric port). */
function validHost(host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(`http://${host}/`).host !== '';
  } catch {
    return false;
  }
}

/** Why node-server could not build a Request from what came in (`incoming`: the request it was). */
function requestRefusal(err: unknown, incoming: IncomingMessage | undefined): SandboxError {
  const reason = err instanceof Error ? err.message : String(err);
  if (!(err instanceof RequestError)) {
    return new SandboxError(500, 'server_error', 'The sandbox hit an unexpected error; it has been logged.');
  }
  if (/host/i.test(reason) || !validHost(incoming?.headers.host)) {
    return new SandboxError(
      400,
      'bad_request',
      'The Host header is not one the sandbox can serve: a name or an address in its canonical form, and an optional numeric port',
      [{ type: 'value_error', pointer: '/host', message: reason, location: 'header' }],
    );
  }
  return new SandboxError(
    400,
    'bad_request',
    'The request target is not a valid path (the sandbox serves no "*" or absolute-form targets of other hosts)',
    [{ type: 'value_error', pointer: '', message: reason, location: 'path' }],
  );
}

function refusalResponse(r: SandboxError): Response {
  return new Response(envelope(r), {
    status: r.status,
    headers: { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' },
  });
}

/** Answers `Expect` values other than `100-continue` with a 417 envelope. */
function onCheckExpectation(req: IncomingMessage, res: ServerResponse): void {
  const expect = String(req.headers.expect ?? '');
  const body = envelope(
    new SandboxError(417, 'expectation_failed', `The sandbox meets no expectation but 100-continue (Expect: ${expect.slice(0, 100)})`, [
      { type: 'value_error', pointer: '/expect', message: 'Only 100-continue is supported', location: 'header' },
    ]),
  );
  res.writeHead(417, {
    'content-type': 'application/json',
    'x-content-type-options': 'nosniff',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body);
  req.resume();
}

/**
 * A `createServer` for @hono/node-server's `serve`: the same request listener, with an error
 * handler that answers a request it could not build with the envelope, and the 417 envelope.
 */
export function envelopedServer(fetch: Fetch, hostname: string | undefined): typeof createServer {
  const make = (options: ServerOptions): Server => {
    // The request being turned into a Request: node-server calls the error handler synchronously when it cannot.
    let current: IncomingMessage | undefined;
    const listener = getRequestListener(fetch, {
      ...(hostname !== undefined ? { hostname } : {}),
      errorHandler: (err) => refusalResponse(requestRefusal(err, current)),
    });
    const server = createServer(options, (req, res) => {
      current = req;
      const done = listener(req, res);
      current = undefined;
      return done;
    });
    server.on('checkExpectation', onCheckExpectation);
    return server;
  };
  // node:http's createServer is overloaded; `serve` calls it as (options, listener) and the listener it passes is replaced.
  return make as typeof createServer;
}
