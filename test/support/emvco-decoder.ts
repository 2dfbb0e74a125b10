/**
 * A test-side EMVCo merchant-presented QR decoder, written apart from the encoder in
 * `src/domain/emvco` so the tests do not check the encoder against itself: it splits a
 * payload into ID/length/value data objects (and templates into theirs), and recomputes the
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) with a table-driven implementation over
 * everything up to and including "6304".
 */

/** One data object; `children` when the value is itself a list of data objects (a template). */
export interface DecodedObject {
  id: string;
  length: number;
  value: string;
}

/** Splits `text` into data objects. @throws Error on a truncated or malformed list. */
export function parseTlv(text: string): DecodedObject[] {
  const out: DecodedObject[] = [];
  let i = 0;
  while (i < text.length) {
    const id = text.slice(i, i + 2);
    const lengthText = text.slice(i + 2, i + 4);
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(lengthText))
      throw new Error(`bad data object header at ${i}: ${JSON.stringify(text.slice(i, i + 4))}`);
    const length = Number(lengthText);
    const value = text.slice(i + 4, i + 4 + length);
    if (value.length !== length) throw new Error(`data object ${id} at ${i} is truncated (wants ${length}, has ${value.length})`);
    out.push({ id, length, value });
    i += 4 + length;
  }
  return out;
}

/** The data objects as a map by ID. @throws Error when an ID appears twice. */
export function tlvMap(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const object of parseTlv(text)) {
    if (map.has(object.id)) throw new Error(`data object ${object.id} appears twice`);
    map.set(object.id, object.value);
  }
  return map;
}

const CRC_TABLE: number[] = Array.from({ length: 256 }, (_, n) => {
  let c = n << 8;
  for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
  return c;
});

/** CRC-16/CCITT-FALSE, table-driven. */
export function crcCcittFalse(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const b of bytes) crc = ((crc << 8) & 0xffff) ^ CRC_TABLE[((crc >> 8) ^ b) & 0xff]!;
  return crc;
}

export interface DecodedPayload {
  /** Top-level data objects by ID (63 included). */
  fields: Map<string, string>;
  /** The CRC the payload carries and the one recomputed. */
  crc: { stated: string; computed: string };
}

/**
 * Decodes a whole payload: 00 must come first with "01", 63 last with 4 hex digits; the
 * CRC is recomputed over everything before the 4 CRC digits.
 */
export function decodePayload(payload: string): DecodedPayload {
  const objects = parseTlv(payload);
  if (objects[0]?.id !== '00' || objects[0].value !== '01') throw new Error('payload format indicator 00 = "01" must come first');
  const last = objects.at(-1)!;
  if (last.id !== '63' || !/^[0-9A-F]{4}$/.test(last.value)) throw new Error('CRC 63 (4 uppercase hex digits) must come last');
  const computed = crcCcittFalse(new TextEncoder().encode(payload.slice(0, -4)))
    .toString(16)
    .toUpperCase()
    .padStart(4, '0');
  return { fields: tlvMap(payload), crc: { stated: last.value, computed } };
}
