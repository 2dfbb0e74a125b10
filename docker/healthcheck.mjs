// The image's HEALTHCHECK: finds the port the sandbox listens on inside the container (from
// /proc/net/tcp{,6}, so `--port`, `-p` and PAYMENT_SANDBOX_PORT all work) and asks
// /_sandbox/health there. Exit 0 when it answers {"status":"ok"}, 1 otherwise.
import { readFileSync } from 'node:fs';

/** Loopback-reachable origins of the listening TCP sockets. */
function listeners() {
  const out = new Set();
  for (const [file, v6] of [
    ['/proc/net/tcp', false],
    ['/proc/net/tcp6', true],
  ]) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state !== '0A' || !local) continue; // 0A = LISTEN
      const [addr, portHex] = local.split(':');
      const port = parseInt(portHex, 16);
      let host;
      if (/^0+$/.test(addr)) host = '127.0.0.1';
      else if (!v6)
        host = addr
          .match(/../g)
          .reverse()
          .map((h) => parseInt(h, 16))
          .join('.');
      else if (addr === '00000000000000000000000001000000') host = '[::1]';
      else continue;
      out.add(`http://${host}:${port}`);
    }
  }
  return [...out];
}

const preferred = `http://127.0.0.1:${process.env.PAYMENT_SANDBOX_PORT || 4010}`;
const origins = listeners().sort((a, b) => (a === preferred ? -1 : b === preferred ? 1 : 0));
for (const origin of origins) {
  try {
    const res = await fetch(`${origin}/_sandbox/health`, { signal: AbortSignal.timeout(2000) });
    if (res.ok && (await res.json()).status === 'ok') process.exit(0);
  } catch {
    // not the sandbox, or not ready: try the next one
  }
}
process.exit(1);
