/**
 * PromptPay payloads (Thai QR Code standard for credit transfer, an EMVCo merchant-presented
 * QR): merchant account information in data object 29 with the PromptPay AID
 * A000000677010111 and one merchant identifier (sub-object 01 mobile number as 0066 + the
 * number without its leading 0, 02 a 13-digit national or tax id, 03 a 15-digit e-wallet
 * id), currency 764 (THB), the amount in baht, country TH and the CRC. A payload with an
 * amount is dynamic (point of initiation 12), one without is static (11).
 */
import { toMajorUnits } from '../../../core/domain/money.js';
import { dataObject, template, withCrc } from './tlv.js';

/** The PromptPay application identifier for credit transfer (merchant-presented). */
export const PROMPTPAY_AID = 'A000000677010111';
/** ISO 4217 numeric code of THB. */
export const THB_NUMERIC = '764';

/** Who receives a PromptPay transfer. */
export type PromptPayProxy =
  | { kind: 'mobile'; /** Thai mobile number, e.g. 0812345678 (spaces/dashes ignored) */ value: string }
  | { kind: 'tax_id'; /** 13 digits */ value: string }
  | { kind: 'ewallet'; /** 15 digits */ value: string };

export interface PromptPayRequest {
  proxy: PromptPayProxy;
  /** In satang (THB minor units); absent for a static code the customer types an amount into. */
  amount?: number;
}

/** The proxy as data object 01, 02 or 03 of template 29. */
function proxyObject(proxy: PromptPayProxy): string {
  const digits = proxy.value.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(digits)) throw new RangeError(`A PromptPay ${proxy.kind} is digits only, got ${JSON.stringify(proxy.value)}`);
  switch (proxy.kind) {
    case 'mobile': {
      const national = digits.replace(/^(66|0)/, '');
      if (national.length !== 9)
        throw new RangeError(`A Thai mobile number has 9 digits after 0 or 66, got ${JSON.stringify(proxy.value)}`);
      return dataObject('01', `0066${national}`);
    }
    case 'tax_id':
      if (digits.length !== 13) throw new RangeError(`A PromptPay national/tax id has 13 digits, got ${digits.length}`);
      return dataObject('02', digits);
    case 'ewallet':
      if (digits.length !== 15) throw new RangeError(`A PromptPay e-wallet id has 15 digits, got ${digits.length}`);
      return dataObject('03', digits);
  }
}

/**
 * The PromptPay payload string: 00 payload format "01", 01 point of initiation ("12" with an
 * amount, "11" without), 29 merchant account (AID + proxy), 53 "764", 54 amount in major
 * units (when given), 58 "TH", 63 CRC-16/CCITT-FALSE.
 * @throws RangeError for a malformed proxy or an amount that is not a positive integer.
 */
export function promptPayPayload(request: PromptPayRequest): string {
  const objects = [dataObject('00', '01'), dataObject('01', request.amount === undefined ? '11' : '12')];
  objects.push(template('29', [dataObject('00', PROMPTPAY_AID), proxyObject(request.proxy)]));
  objects.push(dataObject('53', THB_NUMERIC));
  if (request.amount !== undefined) {
    if (!Number.isSafeInteger(request.amount) || request.amount <= 0)
      throw new RangeError(`A PromptPay amount is a positive integer in satang, got ${request.amount}`);
    objects.push(dataObject('54', toMajorUnits(request.amount, 'THB')));
  }
  objects.push(dataObject('58', 'TH'));
  return withCrc(objects);
}
