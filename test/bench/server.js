// A server for the benchmark, in its own process so load generator and server do not share
// one event loop: `node test/bench/server.js bare` (a bare Hono endpoint, the baseline) or
// `node test/bench/server.js sandbox [dbPath]` (the sandbox, in memory or on a --db file), or
// `bare-cli --port <n>` (a bare Hono app on a given port: the start-up baseline).
// Prints `READY <port>` once listening; SIGTERM stops it cleanly (so --cpu-prof is written).
// BENCH_ROOT names the checkout whose dist/ is measured (default: this one), so the same
// benchmark can measure another build, e.g. main before a change.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { pathToFileURL } from 'node:url';

const [kind, dbPath] = process.argv.slice(2);

if (kind === 'bare-cli') {
  // The start-up baseline: a bare Hono app on a given port (`bare-cli --port <n>`), like the CLI.
  const app = new Hono();
  app.get('/bare', (c) => c.json({ ok: true }));
  serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.argv[4]) });
  process.on('SIGTERM', () => process.exit(0));
} else if (kind === 'bare') {
  const app = new Hono();
  app.get('/bare', (c) => c.json({ ok: true, at: new Date().toISOString() }));
  app.post('/bare', async (c) => c.json({ ok: true, echo: await c.req.json() }, 201));
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => console.log(`READY ${info.port}`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  const root = process.env.BENCH_ROOT ? pathToFileURL(`${process.env.BENCH_ROOT}/`).href : new URL('../../', import.meta.url).href;
  const { startServer } = await import(new URL('dist/server.js', root).href);
  const server = await startServer({ port: 0, host: '127.0.0.1', ...(dbPath ? { db: dbPath } : {}) });
  console.log(`READY ${server.port}`);
  process.on('SIGTERM', () => server.stop().then(() => process.exit(0)));
}
