/**
 * Where the sandbox is reached: the base URL of its payment links (`--public-url`, or the
 * listening address once the server knows it), and which port and host names are its own,
 * so a webhook is never sent back to the sandbox itself (`webhooks/targets.ts`).
 */

export interface PublicAddress {
  /** Base URL the sandbox is reached at; the server sets it once it listens. */
  url: string;
  /** The sandbox's own port and host names, once it has a port (undefined before). */
  own(): { port: number; hosts: ReadonlySet<string> } | undefined;
}

/** `initialUrl` until the server sets another; `ownHosts` are the names it answers to. */
export function createPublicAddress(initialUrl: string, ownHosts: ReadonlySet<string>): PublicAddress {
  let url = initialUrl;
  return {
    get url() {
      return url;
    },
    set url(next: string) {
      url = next;
    },
    own() {
      const port = Number(new URL(url).port);
      return Number.isInteger(port) && port > 0 ? { port, hosts: ownHosts } : undefined;
    },
  };
}
