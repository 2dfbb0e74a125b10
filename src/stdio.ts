/**
 * A closed stdout or stderr never stops the sandbox. `payment-sandbox | head -1` closes the
 * pipe after the ready line; the next line written (a webhook, a request with --log) failed
 * with EPIPE, an 'error' event nobody handled, and the process crashed. Now a stream that
 * fails is dropped quietly (there is nobody left to tell), and the logger stops writing to it.
 */

let guarded = false;

/** Handles write errors of process.stdout and process.stderr for the rest of the process (idempotent). */
export function tolerateClosedOutput(): void {
  if (guarded) return;
  guarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', () => {
      // EPIPE (the reader went away), ERR_STREAM_DESTROYED after it, EIO of a closed terminal.
      if (!stream.destroyed) stream.destroy();
    });
  }
}
