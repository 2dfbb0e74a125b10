/**
 * Buyers generated with faker for each account (contract: `GET /v4/buyers`). The same
 * `--seed` and account id always give the same buyers, so listings are reproducible.
 */
import type { Faker } from '@faker-js/faker';
// The English entry alone: the package's main entry loads every locale (about 1 s and 25 MB
// at start-up). Same generator and English data, so the same buyers for the same seed.
import { faker as englishFaker } from '@faker-js/faker/locale/en';
import type { BuyersRepo } from './ports.js';

const EnglishFaker = englishFaker.constructor as typeof Faker;

export const BUYERS_PER_ACCOUNT = 45;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A 32-bit seed from the global seed and the account id (FNV-1a). */
function accountSeed(seed: number, accountId: string): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < accountId.length; i++) {
    h ^= accountId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Inserts the account's buyers, oldest first, created over the 90 days before `nowMs`.
 * Ids and names depend only on `seed` and the account id.
 */
export function seedBuyers(store: BuyersRepo, accountId: string, seed: number, nowMs: number): void {
  const faker = new EnglishFaker({ locale: [englishFaker.rawDefinitions] });
  faker.seed(accountSeed(seed, accountId));
  const start = nowMs - 90 * DAY_MS;
  const step = Math.floor((90 * DAY_MS) / BUYERS_PER_ACCOUNT);
  for (let i = 0; i < BUYERS_PER_ACCOUNT; i++) {
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    const created = start + i * step + faker.number.int({ min: 0, max: step - 1 });
    store.insert({
      id: faker.string.uuid(),
      account_id: accountId,
      display_name: `${first} ${last}`,
      external_identifier: faker.datatype.boolean(0.8) ? `buyer-${faker.string.numeric(6)}` : null,
      created_at: created,
      updated_at: created,
    });
  }
}
