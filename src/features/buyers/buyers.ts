/**
 * Buyers generated with faker for each account. The same
 * `--seed` and account id always give the same buyers, so listings are reproducible.
 * Faker is loaded on first use, not at start-up (it is the largest module the sandbox has):
 * see `merchant-accounts.ts`, which seeds an account's buyers when they are first read.
 */
import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';
import type { BuyersRepo } from './ports.js';

interface EnglishFaker {
  faker: Faker;
  EnglishFaker: typeof Faker;
}

let loaded: EnglishFaker | undefined;

/**
 * The English entry alone (the package's main entry loads every locale), loaded
 * synchronously on first use: `require` of an ES module (Node >= 20.19, see `engines`).
 * Same generator and English data, so the same buyers for the same seed.
 */
function english(): EnglishFaker {
  if (!loaded) {
    const { faker } = createRequire(import.meta.url)('@faker-js/faker/locale/en') as typeof import('@faker-js/faker/locale/en');
    loaded = { faker, EnglishFaker: faker.constructor as typeof Faker };
  }
  return loaded;
}

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
  const { faker: englishFaker, EnglishFaker } = english();
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
