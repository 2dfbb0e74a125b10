/**
 * Pix payloads (BR Code, Banco Central do Brasil's EMVCo merchant-presented QR): merchant
 * account information in data object 26 with the GUI br.gov.bcb.pix and the receiver's Pix
 * key, merchant category 0000, currency 986 (BRL), the amount in reais, country BR, the
 * merchant's name (up to 25 characters) and city (up to 15), the transaction id (txid, up
 * to 25 letters and digits, or *** when none) in data object 62 sub-object 05, and the CRC.
 * A payload with an amount is dynamic (point of initiation 12), one without is static (11).
 */
import { toMajorUnits } from '../../../core/domain/money.js';
import { dataObject, emvText, template, withCrc } from './tlv.js';

/** The globally unique identifier of Pix in data object 26. */
export const PIX_GUI = 'br.gov.bcb.pix';
/** ISO 4217 numeric code of BRL. */
export const BRL_NUMERIC = '986';

export interface PixRequest {
  /** The receiver's Pix key: e-mail, phone (+55...), CPF/CNPJ or random key (EVP), up to 77 characters. */
  key: string;
  merchantName: string;
  merchantCity: string;
  /** In centavos (BRL minor units); absent for a static code. */
  amount?: number;
  /** Letters and digits only, up to 25; other characters are dropped. Absent: "***". */
  txid?: string;
}

/** A txid as BR Code allows it: [A-Za-z0-9], 1 to 25 characters, or "***". */
export function pixTxid(raw: string | undefined): string {
  const cleaned = (raw ?? '').replace(/[^A-Za-z0-9]/g, '').slice(0, 25);
  return cleaned === '' ? '***' : cleaned;
}

/**
 * The Pix payload string: 00 "01", 01 "12" (with an amount) or "11", 26 (00 GUI, 01 key),
 * 52 "0000", 53 "986", 54 amount (when given), 58 "BR", 59 name, 60 city, 62 (05 txid),
 * 63 CRC-16/CCITT-FALSE.
 * @throws RangeError for an empty or too long key, name or city, or a non-positive amount.
 */
export function pixPayload(request: PixRequest): string {
  const key = request.key.trim();
  if (key.length < 1 || key.length > 77) throw new RangeError(`A Pix key has 1 to 77 characters, got ${key.length}`);
  const name = emvText(request.merchantName, 25);
  const city = emvText(request.merchantCity, 15);
  if (!name) throw new RangeError('A Pix merchant name needs at least one printable character');
  if (!city) throw new RangeError('A Pix merchant city needs at least one printable character');
  const objects = [dataObject('00', '01'), dataObject('01', request.amount === undefined ? '11' : '12')];
  objects.push(template('26', [dataObject('00', PIX_GUI), dataObject('01', key)]));
  objects.push(dataObject('52', '0000'), dataObject('53', BRL_NUMERIC));
  if (request.amount !== undefined) {
    if (!Number.isSafeInteger(request.amount) || request.amount <= 0)
      throw new RangeError(`A Pix amount is a positive integer in centavos, got ${request.amount}`);
    objects.push(dataObject('54', toMajorUnits(request.amount, 'BRL')));
  }
  objects.push(dataObject('58', 'BR'), dataObject('59', name), dataObject('60', city));
  objects.push(template('62', [dataObject('05', pixTxid(request.txid))]));
  return withCrc(objects);
}
