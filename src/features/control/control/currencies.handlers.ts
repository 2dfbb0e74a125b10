/** Handler of `GET /_sandbox/currencies`: the domain's ISO 4217 exponents. */
import { CURRENCY_CODES, currencyExponent } from '../../../core/domain/money.js';
import type { ControlHandler } from '../../../core/http/control-route-parts.js';
import type { ListRoute } from './currencies.routes.js';

export const list: ControlHandler<ListRoute> = (c) =>
  c.json({ exponents: Object.fromEntries(CURRENCY_CODES.map((code) => [code, currencyExponent(code)])) }, 200);
