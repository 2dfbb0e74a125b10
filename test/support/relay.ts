/**
 * One address in front of sandboxes that come and go, as a container's published port is in
 * front of the container: each connection to the relay is piped to the port it points at now.
 * A test restarts "the sandbox" by stopping one and pointing the relay at another, so no port
 * is ever released and bound again (another test could take it in between).
 */
import { connect, createServer, type Socket } from 'node:net';

export interface Relay {
  /** `http://127.0.0.1:<port>` of the relay. */
  url: string;
  /** Points new connections at `port` (null: nothing, each connection is cut). */
  to(port: number | null): void;
  close(): Promise<void>;
}

export async function startRelay(port: number | null = null): Promise<Relay> {
  let target = port;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    if (target === null) {
      client.destroy();
      return;
    }
    const upstream = connect(target, '127.0.0.1');
    open.add(upstream);
    upstream.once('close', () => open.delete(upstream));
    const cut = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.once('error', cut);
    upstream.once('error', cut);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const listening = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${listening}`,
    to: (next) => void (target = next),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
