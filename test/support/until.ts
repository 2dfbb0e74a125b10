/** Polling for tests that wait on another process (a container, a compose service). */

/**
 * The first value `probe` gives that is not undefined, probing every 250 ms.
 * @throws Error naming `what` once `timeoutMs` has passed without one.
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
