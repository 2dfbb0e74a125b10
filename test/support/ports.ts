/** Ports for tests: one nobody listens on now, on loopback. */
import { createServer } from 'node:net';

/** A port nobody listens on now (127.0.0.1): bound once by the system, then released. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
