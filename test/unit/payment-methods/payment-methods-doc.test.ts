/** docs/payment-methods.md stays true: its payment-method and settlement-rate tables are generated from the code. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { paymentMethodsTable, settlementRatesTable } from '../../support/payment-methods-table.js';

const doc = readFileSync(new URL('../../../docs/payment-methods.md', import.meta.url), 'utf8');
const between = (name: string) => new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)\\n<!-- ${name}:end -->`).exec(doc)?.[1];

describe('docs/payment-methods.md', () => {
  it('its payment-methods table is generated from the catalogue', () => {
    expect(between('payment-methods'), 'regenerate with: npx tsx test/domain/payment-methods-table.ts').toBe(paymentMethodsTable());
  });
  it('its settlement-rates table is generated from the fixed rates', () => {
    expect(between('settlement-rates'), 'regenerate with: npx tsx test/domain/payment-methods-table.ts').toBe(settlementRatesTable());
  });
});
