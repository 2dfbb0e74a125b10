/**
 * Hostile fixtures documents over a real socket (`POST /_sandbox/fixtures`): a reference
 * repeated to blow a body up, references in fields the API ignores, and an advance of the
 * clock past the control API's bound are each refused as a whole with the spec's error
 * envelope, naming the fixture and the pointer, fast, with nothing created.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/log.js';
import { startServer, type RunningServer } from '../../../src/server.js';
import { directPayment, headers } from '../../support/app.js';

type Json = Record<string, unknown>;
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function start(): Promise<RunningServer> {
  const server = await startServer({ port: 0 }, { logger: createLogger({ quiet: true, err: () => undefined }) });
  cleanup.push(() => server.stop());
  return server;
}

async function post(server: RunningServer, document: unknown): Promise<{ status: number; body: Json; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${server.url}/_sandbox/fixtures`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(document),
  });
  return { status: res.status, body: (await res.json()) as Json, ms: performance.now() - started };
}

async function transactions(server: RunningServer): Promise<number> {
  return ((await (await fetch(`${server.url}/v4/transactions`, { headers: headers() })).json()) as { items: unknown[] }).items.length;
}

const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'x'.repeat(490)])); // the largest metadata: about 25 KB of JSON
const seed = { name: 'a', account: 'direct', create: 'transaction', body: directPayment({ metadata }) };

describe('hostile fixtures documents', () => {
  it('a reference to a large value repeated across a body is refused fast, before the body grows, with nothing created', async () => {
    const server = await start();
    const heapBefore = process.memoryUsage().heapUsed;
    const blowUp = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, '${a.metadata}']));
    const { status, body, ms } = await post(server, {
      fixtures: [seed, { name: 'b', account: 'direct', create: 'transaction', body: directPayment({ metadata: blowUp }) }],
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ type: 'error', status: 400, code: 'bad_request' });
    expect(String(body.message)).toMatch(
      /fixture "b" at \/fixtures\/1\/body\/metadata\/k\d+: the references of this body expand to more than \d+ characters/,
    );
    expect(ms).toBeLessThan(2000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
    expect(await transactions(server)).toBe(0);
  });

  it('more references in one body than the bound are refused before anything is created', async () => {
    const server = await start();
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, '${a.id}']));
    const { status, body } = await post(server, {
      fixtures: [seed, { name: 'b', account: 'direct', create: 'transaction', body: directPayment({ metadata: many }) }],
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ type: 'error', status: 400 });
    expect(String(body.message)).toMatch(/fixture "b" at \/fixtures\/1\/body\/metadata\/k100: a body may hold at most 100 references/);
    expect(await transactions(server)).toBe(0);
  });

  it('references in fields the API ignores are never substituted (the blow-up hidden in an unknown field is not expanded)', async () => {
    const server = await start();
    const { status, body } = await post(server, {
      fixtures: [
        seed,
        {
          name: 'b',
          account: 'direct',
          create: 'transaction',
          body: {
            ...directPayment({ metadata: { from: '${a.id}' } }),
            junk: '${a.metadata}'.repeat(90),
            extra: { missing: '${a.no_such_field}' },
          },
        },
      ],
    });
    expect(status).toBe(201);
    expect((body.b as Json).metadata).toEqual({ from: (body.a as Json).id });
    expect(body.b).not.toHaveProperty('junk');
    expect(body.b).not.toHaveProperty('extra');
  });

  it('then advance:<seconds> past the control API bound of about 10 years is refused with the envelope; the clock stays', async () => {
    const server = await start();
    const { status, body } = await post(server, { fixtures: [{ ...seed, then: 'advance:999999999999' }] });
    expect(status).toBe(400);
    expect(body).toMatchObject({ type: 'error', status: 400 });
    expect(String(body.message)).toMatch(/fixture "a" at \/fixtures\/0\/then: advance:<seconds> must be at most \d+ \(about 10 years\)/);
    const clock = (await (await fetch(`${server.url}/_sandbox/clock`)).json()) as { offset_seconds: number };
    expect(clock.offset_seconds).toBe(0);
    expect(await transactions(server)).toBe(0);
  });
});
