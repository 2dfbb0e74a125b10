/**
 * The webhook HTTP client (src/webhooks/post.ts) over real sockets: the exact request, kept-alive
 * connections, redirects not followed, the 1 MiB reading bound, decoded answers, the time
 * limit, network errors, and TLS verified for https targets.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_READ_RESPONSE, createPoster, type WebhookPoster } from '../../../../src/core/webhooks/post.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

interface Seen {
  rawHeaders: string[];
  body: string;
  remotePort: number;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { rawHeaders: req.rawHeaders, body: Buffer.concat(chunks).toString('utf8'), remotePort: req.socket.remotePort ?? 0 };
      seen.push(s);
      handler(req, res, s);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen };
}

function poster(timeoutMs = 5000): WebhookPoster {
  const p = createPoster({ timeoutMs, maxFreePerOrigin: 8 });
  cleanup.push(() => p.close());
  return p;
}

const ACK = JSON.stringify({ code: '200', message: 'SUCCESS' });
const HEADERS = { 'content-type': 'application/json', timestamp: '20260101000000', timezone: 'UTC', signature: 'c2ln' };

describe('webhook POST over node:http', () => {
  it('sends the exact body bytes and headers, and reuses the connection for the next webhook', async () => {
    const { url, seen } = await listen((_req, res) => res.end(ACK));
    const p = poster();
    const body = JSON.stringify({ name: 'Zoë', amount: 1050 });
    expect(await p.post(url, HEADERS, body)).toEqual({ status: 200, text: ACK, whole: true });
    expect(await p.post(url, HEADERS, body)).toEqual({ status: 200, text: ACK, whole: true });
    expect(seen[0]!.body).toBe(body);
    const pairs = [];
    for (let i = 0; i < seen[0]!.rawHeaders.length; i += 2) pairs.push([seen[0]!.rawHeaders[i], seen[0]!.rawHeaders[i + 1]]);
    const port = new URL(url).port;
    expect(pairs).toEqual([
      ['host', `127.0.0.1:${port}`],
      ['connection', 'keep-alive'],
      ['content-type', 'application/json'],
      ['timestamp', '20260101000000'],
      ['timezone', 'UTC'],
      ['signature', 'c2ln'],
      ['accept', '*/*'],
      ['accept-language', '*'],
      ['sec-fetch-mode', 'cors'],
      ['user-agent', 'node'],
      ['accept-encoding', 'gzip, deflate'],
      ['content-length', String(Buffer.byteLength(body, 'utf8'))],
    ]);
    expect(seen[1]!.remotePort).toBe(seen[0]!.remotePort); // one kept-alive connection
  });

  it('answers a redirect with its own status (not followed)', async () => {
    const target = await listen((_req, res) => res.end(ACK));
    const { url } = await listen((_req, res) => res.writeHead(307, { location: target.url }).end());
    expect(await poster().post(url, HEADERS, '{}')).toMatchObject({ status: 307, whole: true });
    expect(target.seen).toHaveLength(0);
  });

  it('reads an answer up to 1 MiB: a larger one is not whole', async () => {
    const exact = 'x'.repeat(MAX_READ_RESPONSE);
    const fits = await listen((_req, res) => res.end(exact));
    expect(await poster().post(fits.url, HEADERS, '{}')).toEqual({ status: 200, text: exact, whole: true });
    const big = await listen((_req, res) => res.end('y'.repeat(3 * MAX_READ_RESPONSE)));
    const answer = await poster().post(big.url, HEADERS, '{}');
    expect(answer.whole).toBe(false);
    expect(answer.text.length).toBeLessThanOrEqual(MAX_READ_RESPONSE);
  });

  it('decodes a gzip answer, as fetch did', async () => {
    const { url } = await listen((_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(ACK)));
    expect(await poster().post(url, HEADERS, '{}')).toEqual({ status: 200, text: ACK, whole: true });
  });

  it('gives up on an answer that does not finish in time (TimeoutError), headers sent or not', async () => {
    const silent = await listen(() => undefined);
    await expect(poster(200).post(silent.url, HEADERS, '{}')).rejects.toMatchObject({
      name: 'TimeoutError',
      message: 'no answer within 0.2 s',
    });
    const halfway = await listen((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"code"');
    });
    await expect(poster(200).post(halfway.url, HEADERS, '{}')).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('rejects with the system error code when nothing listens', async () => {
    const { url } = await listen((_req, res) => res.end(ACK));
    for (const f of cleanup.splice(0).reverse()) await f(); // the server is gone
    await expect(poster().post(url, HEADERS, '{}')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('speaks TLS to an https target and verifies its certificate', async () => {
    const server = createTlsServer({ key: KEY, cert: CERT }, (_req, res) => res.end(ACK));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    await expect(poster().post(url, HEADERS, '{}')).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  });
});

/** A self-signed certificate for 127.0.0.1 (valid until 2126): not trusted, so verification must refuse it. */
const KEY = `-----BEGIN PRIVATE KEY-----
MIIEvwIBADANBgkqhkiG9w0BAQEFAASCBKkwggSlAgEAAoIBAQDpBmYJb0i/Et/1
6+AvNBnz79QJX8D+nlvnVUNjSJTmXvwULAlj0Ao5mrr1CWYQ5DTaDX4MuASADc9Y
HF61CRZ1k05YwJGsm4LN1u6uK6JSFIdhVjcNdc2+fjUFWCp/4n33EKnn9Pax/hAU
IkxcimwTzoZnFuSfXeAppnpHo7NNktIwfqMojFsPogzuh7STTB2g3MsEi8XF+N0R
IxAjIcuYn1tdW9zfx6WclKKenoX4e59iBw4q1ILqZy2LTb7tXaYoE1YiQ5Gpe+95
jtvjcpM6HXIhtMWhbwBsHPMQ+wg9IChq6b5ssjOO0enk1RtbVgIvW+tk08uHlLOj
HkYLa2KjAgMBAAECggEAEVBDDzsQJ0zlDFs/h5ena1MhE1E6AFu5GFxiwA20gn6s
MWjUNHD7UYGy7QyLDiuRLGJe6zMA9+1kFSKGfDego5ETpnnTA7Afl+D6+us4XuuH
ji6Js0ZSyG84IUgxCtoZNzIrGEDrKMO9Dhc+SoyTsHpid2ZhYOCTYdossQXzXIqt
J+VqQsMnR7/2JuDWw9T/5q9fer7sMEAOEOqaRwuNwC6Vgg7gdq629oJOffsNq0Hc
i0HzPsHmNSkba6g01NYenkl2zQ8OU3G5bxvVwXW91iQRizli1cQoeuIXmxF1L1Nl
gYfA1oUJmfdKodvowTq1mKqMVdj4Si1g/QAjbRZDgQKBgQD0qjC/S1dL8NGKWMc+
95sOsfVrqbXI15eHSKNwrJLM4Fc4pKiZ9DLJeg0BiJOy3P7pVJIGnzzH2qFhYnYD
rw72Tz5KA8NAJO1MEZwuJcw1kX4IAoetYsrKBVzmIvSGNdRBIbPVPM2vds7GesEW
YHTzE3kSchP8lPb0tTqtV2Hv7wKBgQDz0ifsaCNtUga8jCGZiJEtcVNH1JxsSowL
JbHJJ73ZXwdYhf+tLYRwv+eKo7NKOTvPcIP4Fh4PFtGLI1MUSKrBR7lNG6t2HjXq
3OAygnFoh7dnoqrQOlkotmMb8KIdC5yu8rZ8w+mOhVGv+LxCQaMDb2+fclSD6r9d
7Yym3m2EjQKBgQCtNuh4JiDRtNbEuYGmRKpURw1XgbkfTfMLZhPAK41q2tElWv26
sTZbibs3gLgAg5E9JBCV+5qOa2yhg5HFneRb4VJaGDvdZ8dQeY825K+kpTKy/QeN
a0niqNVSYSD4+5cf3Xpx1zBPry9JOZMGApgJl5m5w2X/Bn+oU74NBrZhpQKBgQC+
fGSGdMGgyeHLcmtZqPFLIGthBgEDNaZ9mwBv2GWhKnXxuhaLNLFw6Oy7SrNq/JX2
tb/UlWr8fOZOntVsVm1ZPXDOhhyJ1oZnLBLYQ0LY2Jb4F4T902gOv5dkn7X3nTfX
EnZxuRmCKDQul9R0qxTxPSFm34qZ2U+S0WD+iW3kjQKBgQCTwKhkX11VUgSWeov1
BmdDOZBk1H5WGjzKTeCRTRYq4BaNaBoTAJUSpAK12EyYROCk6Vm7QjDMbnnQsHF+
1fUgJ7bLB4xptvuSS3jnHLGoHmRVEaCJaOSUocJsRoyt4OIZYXrM0OSiuWwvPDia
OWpNM0OeGnMa7vvqd0CGtaad7w==
-----END PRIVATE KEY-----`;
const CERT = `-----BEGIN CERTIFICATE-----
MIIDJzCCAg+gAwIBAgIUIvO00HcnhtyRbDeJB3e1HO5upJEwDQYJKoZIhvcNAQEL
BQAwFDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMzA0MjU1N1oYDzIxMjYx
MDMwMDQyNTU3WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwggEiMA0GCSqGSIb3DQEB
AQUAA4IBDwAwggEKAoIBAQDpBmYJb0i/Et/16+AvNBnz79QJX8D+nlvnVUNjSJTm
XvwULAlj0Ao5mrr1CWYQ5DTaDX4MuASADc9YHF61CRZ1k05YwJGsm4LN1u6uK6JS
FIdhVjcNdc2+fjUFWCp/4n33EKnn9Pax/hAUIkxcimwTzoZnFuSfXeAppnpHo7NN
ktIwfqMojFsPogzuh7STTB2g3MsEi8XF+N0RIxAjIcuYn1tdW9zfx6WclKKenoX4
e59iBw4q1ILqZy2LTb7tXaYoE1YiQ5Gpe+95jtvjcpM6HXIhtMWhbwBsHPMQ+wg9
IChq6b5ssjOO0enk1RtbVgIvW+tk08uHlLOjHkYLa2KjAgMBAAGjbzBtMB0GA1Ud
DgQWBBSO7Jfk6US+poRYkJscROB2PrsyMjAfBgNVHSMEGDAWgBSO7Jfk6US+poRY
kJscROB2PrsyMjAPBgNVHRMBAf8EBTADAQH/MBoGA1UdEQQTMBGHBH8AAAGCCWxv
Y2FsaG9zdDANBgkqhkiG9w0BAQsFAAOCAQEARO0yLP3+/mMAy3bxuzEDkbieWei2
v+zXnXLOpXsNcOrwmTvmBYcYG6BJgfswL056DowD5vLCSa3Fa60pG0LuOfRJDB2u
uMwjxe/0Zs46uwxa9B3mFVSTSjAz6+1taflaN9gT/ZUpGI4aORd1bEW6Ac6IUeHx
XW+65qcEl8uQuJ/vuKc/pWfigHMKWwyLvWP1MMyR9kyehJNinKgVzitJ51NTVjgM
87gE0XZZXpxG0t/kkdjbmTLky0C8OIWGf3oK8C01TnvHJo0Bc783RHscgCCfb77W
UElmkUIXy7JO0Mn7XMJb3vaiSI5Nnxx6UlAPtxdlh0uUKlTGFdy2c14HgQ==
-----END CERTIFICATE-----`;
