/**
 * Reading a byte stream, bounded: at most `limit` bytes are kept, and reading stops at the
 * first chunk past the limit, so a body without end never fills the memory.
 */

/**
 * The bytes of `reader` to its end, or null once they pass `limit`. On null the reader is
 * left as it stands: the caller cancels it (closing the connection) or releases it.
 */
export async function readStreamAtMost(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<Buffer | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) return null;
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
