// A server for the benchmark, in its own process so load generator and server do not share
// one event loop: `node test/bench/server.js bare` (a bare Hono endpoint, the baseline) or
// `node test/bench/server.js sandbox [rows]` (the sandbox, optionally with `rows` transactions
// inserted first). Prints `READY <port>` once listening.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const [kind, rowsArg] = process.argv.slice(2);

if (kind === 'bare') {
  const app = new Hono();
  app.get('/bare', (c) => c.json({ ok: true, at: new Date().toISOString() }));
  app.post('/bare', async (c) => c.json({ ok: true, echo: await c.req.json() }, 201));
  serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => console.log(`READY ${info.port}`));
} else {
  const { startServer } = await import('../../dist/server.js');
  const server = await startServer({ port: 0, host: '127.0.0.1' });
  const rows = Number(rowsArg ?? 0);
  if (rows > 0) {
    const { randomUUID } = await import('node:crypto');
    const insert = server.sandbox.db.prepare(`INSERT INTO transactions (id, account_id, status, amount, currency, created_at, updated_at)
      VALUES (?, 'acc_demo_direct', 'PENDING', ?, 'USD', ?, ?)`);
    const now = Date.now();
    server.sandbox.db.transaction(() => {
      for (let i = 0; i < rows; i++) insert.run(randomUUID(), 100 + (i % 1000), now - (rows - i), now - (rows - i));
    })();
  }
  console.log(`READY ${server.port}`);
  process.on('SIGTERM', () => server.stop().then(() => process.exit(0)));
}
