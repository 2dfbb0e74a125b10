/**
 * Renders the README's payment-method and settlement-rate tables from the catalogue
 * (`src/domain/payment-methods.ts`) and the fixed rates (`src/domain/settlement.ts`), so a
 * test can keep the documentation identical to the code. Print them with
 * `npx tsx test/domain/payment-methods-table.ts`.
 */
import { pathToFileURL } from 'node:url';
import { PAYMENT_METHOD_GROUPS } from '../../src/features/payment-methods/payment-methods.js';
import { SANDBOX_RATES_PER_USD, SETTLEMENT_CURRENCIES } from '../../src/core/domain/settlement.js';

const STEP: Record<string, string> = {
  card: 'card form (checkout mode only; direct mode sends the card)',
  qr: 'QR code to scan (EMVCo payload), then paid or cancelled',
  wallet: 'hand-off to the wallet app, approve or decline',
  mobile_banking: 'hand-off to the banking app, approve or decline',
};

/** One row per channel: group, code, name, type, currencies, country, the customer's step. */
export function paymentMethodsTable(): string {
  const rows = PAYMENT_METHOD_GROUPS.flatMap((group) =>
    group.channels.map((c) => {
      const currencies = c.currencies === 'any' ? 'any accepted' : c.currencies.join(', ');
      const name = c.schemes.length > 0 ? `${c.name} (${c.schemes.join(', ')})` : c.name;
      return `| ${group.name} | \`${c.code}\` | ${name} | ${c.type} | ${currencies} | ${c.country ?? 'global'} | ${STEP[c.type]} |`;
    }),
  );
  return [
    "| Group | `payment_channel_code` | Name | Type | Currencies | Country | The customer's step on the payment page |",
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** The fixed sandbox rates, units per US dollar. */
export function settlementRatesTable(): string {
  const rows = SETTLEMENT_CURRENCIES.map((code) => `| ${code} | ${SANDBOX_RATES_PER_USD[code]} |`);
  return ['| Currency | Units per 1 USD |', '|---|---|', ...rows].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(`${paymentMethodsTable()}\n\n${settlementRatesTable()}`);
