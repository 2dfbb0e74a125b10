/**
 * The EMVCo merchant-presented QR code format (EMV QRCPS): data objects written as ID (two
 * digits), length (two digits) and value, and the CRC-16/CCITT-FALSE checksum (polynomial
 * 0x1021, initial value 0xFFFF, no reflection, no final XOR) that closes every payload as
 * data object 63, computed over the whole payload up to and including "6304".
 */

/** One data object: `id` two digits, `value` 1 to 99 characters. */
export function dataObject(id: string, value: string): string {
  if (!/^\d{2}$/.test(id)) throw new RangeError(`An EMVCo data object ID is two digits, got ${JSON.stringify(id)}`);
  if (value.length < 1 || value.length > 99) {
    throw new RangeError(`EMVCo data object ${id} must hold 1 to 99 characters, got ${value.length}`);
  }
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** A template (e.g. merchant account information 26-51, additional data 62): its data objects concatenated. */
export function template(id: string, objects: readonly string[]): string {
  return dataObject(id, objects.join(''));
}

/** CRC-16/CCITT-FALSE of the string's bytes (UTF-8), as four uppercase hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** The payload from its data objects (without 63), closed by data object 63 with its CRC. */
export function withCrc(objects: readonly string[]): string {
  const body = `${objects.join('')}6304`;
  return body + crc16(body);
}

/**
 * Characters EMVCo allows in merchant name and city ("Alphanumeric Special" kept to
 * printable ASCII here): accents are dropped (São Paulo → Sao Paulo), anything else outside
 * printable ASCII removed, the result trimmed to `max` characters.
 */
export function emvText(text: string, max: number): string {
  const ascii = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .trim();
  return ascii.slice(0, max).trim();
}
