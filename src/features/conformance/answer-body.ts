/**
 * How much of an answer the kit reads: at most 1 MiB, counted as the bytes arrive. `fetch`
 * hands over the body already decoded (gzip, deflate, br), so the decoded bytes are what is
 * counted: a small compressed answer that inflates past the limit is stopped like a large one.
 */

/** The most of one answer the kit reads. */
export const ANSWER_LIMIT_BYTES = 1024 * 1024;

/** The limit as the report words it. */
export const ANSWER_LIMIT_TEXT = '1 MiB (1048576 bytes)';

/**
 * Reads the body of `res` as UTF-8 text, at most `limit` bytes. Past the limit it stops reading,
 * cancels the body (which closes the connection) and resolves with null.
 */
export async function readBoundedText(res: Response, limit = ANSWER_LIMIT_BYTES): Promise<string | null> {
  if (res.body === null) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
