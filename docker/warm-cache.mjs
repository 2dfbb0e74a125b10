// Run once while the image is built (`RUN node docker/warm-cache.mjs`): starts the sandbox with
// NODE_COMPILE_CACHE set (the image's ENV), asks it what a merchant's CI asks first (health,
// the credentials, a create, a get, a list), and stops it, so V8's compiled code of the bundle
// and of the HEALTHCHECK's script is in the image. A container then starts without compiling
// the bundle again. Exits non-zero when the sandbox does not come up: the build fails.
import { spawn, spawnSync } from 'node:child_process';

if (!process.env.NODE_COMPILE_CACHE) throw new Error('warm-cache: NODE_COMPILE_CACHE is not set');
const child = spawn(process.execPath, ['bin/payment-sandbox.js', '--port', '0', '--host', '127.0.0.1', '--quiet'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const timer = setTimeout(() => {
  child.kill('SIGKILL');
  console.error('warm-cache: the sandbox did not get ready in 60 s');
  process.exit(1);
}, 60_000);
let out = '';
const origin = await new Promise((resolve, reject) => {
  child.once('exit', (code) => reject(new Error(`warm-cache: the sandbox exited ${code}`)));
  child.stdout.on('data', (d) => {
    out += d;
    const m = /payment-sandbox ready: url=(\S+)/.exec(out);
    if (m) resolve(m[1]);
  });
});
const get = async (path, init) => (await fetch(`${origin}${path}`, init)).json();
await get('/_sandbox/health');
const { accounts } = await get('/_sandbox/credentials');
const direct = accounts.find((a) => a.name === 'direct') ?? accounts[0];
const headers = {
  authorization: `Bearer ${direct.api_key}`,
  'x-merchant-account-id': direct.account_id,
  'content-type': 'application/json',
};
const payment = {
  amount: 1050,
  currency: 'USD',
  payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
};
const created = await get('/v4/transactions', {
  method: 'POST',
  headers: { ...headers, 'idempotency-key': 'warm-cache' },
  body: JSON.stringify(payment),
});
if (created.id) await get(`/v4/transactions/${created.id}`, { headers });
await get('/v4/transactions?limit=20', { headers });
child.removeAllListeners('exit');
const exited = new Promise((resolve) => child.once('exit', resolve));
child.kill('SIGTERM'); // a clean exit writes the compile cache
const code = await exited;
clearTimeout(timer);
if (code !== 0) throw new Error(`warm-cache: the sandbox exited ${code} on SIGTERM`);
// The HEALTHCHECK's script: it exits 1 here (nothing listens any more), its code is cached all the same.
spawnSync(process.execPath, ['docker/healthcheck.mjs'], { stdio: 'ignore' });
console.log(`warm-cache: compiled code kept in ${process.env.NODE_COMPILE_CACHE}`);
