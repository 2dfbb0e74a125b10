/**
 * Each account's own settings: its rate limit and latency, set with
 * `PATCH /_sandbox/accounts/{id}`, over the `--rate-limit` and `--latency` options an account
 * without its own has; and whether its webhooks get a canary (`--webhook-canary`). Kept with the sandbox's state (a `--db` file, a snapshot); a reset
 * keeps them with the accounts.
 */
import type { LatencyDistribution, LoadSettings } from '../../core/http/load-rehearsal.js';

/** An account's own settings; each absent one is the option's. */
export interface OwnLoadSettings {
  rateLimit?: number;
  latency?: LatencyDistribution;
  webhookCanary?: boolean;
}

/** A change: a value sets the account's own; null goes back to the option's. */
export interface LoadSettingsChange {
  rateLimit?: number | null;
  latency?: LatencyDistribution | null;
  webhookCanary?: boolean | null;
}

export interface AccountLoadSettings {
  /** The settings in force for `accountId` (the options' for no account, or an unknown one: `known` false). */
  of(accountId: string | undefined): LoadSettings & { known: boolean };
  /** What `accountId` set of its own. */
  own(accountId: string): OwnLoadSettings;
  /** Changes `accountId`'s own settings and saves them; answers the settings now in force. */
  change(accountId: string, change: LoadSettingsChange): LoadSettings;
  /** Whether `accountId`'s webhooks get a canary: its own setting, else `--webhook-canary`. */
  webhookCanary(accountId: string): boolean;
}

export interface AccountLoadSettingsDeps {
  /** The options' settings (`--rate-limit`, `--latency`). */
  defaults: LoadSettings;
  /** `--webhook-canary`. */
  webhookCanary?: boolean;
  accounts: { byId(id: string): unknown };
  /** The saved settings (JSON), and saving them. */
  load(): string | undefined;
  save(text: string): void;
}

function parseSaved(text: string | undefined): Map<string, OwnLoadSettings> {
  const out = new Map<string, OwnLoadSettings>();
  if (!text) return out;
  try {
    const parsed = JSON.parse(text) as Record<string, OwnLoadSettings>;
    for (const [id, own] of Object.entries(parsed)) if (own && typeof own === 'object') out.set(id, own);
  } catch {
    // unreadable: no account has settings of its own
  }
  return out;
}

export function createAccountLoadSettings(deps: AccountLoadSettingsDeps): AccountLoadSettings {
  const owned = parseSaved(deps.load());
  // A lookup per /v4 call: accounts are cached as known once seen.
  const known = new Set<string>();
  const isKnown = (accountId: string): boolean => {
    if (known.has(accountId)) return true;
    if (!deps.accounts.byId(accountId)) return false;
    known.add(accountId);
    return true;
  };
  const inForce = (own: OwnLoadSettings | undefined): LoadSettings => ({
    rateLimit: own?.rateLimit ?? deps.defaults.rateLimit,
    latency: own?.latency ?? deps.defaults.latency,
  });
  // Read on every /v4 call: the settings in force are kept per account until one changes.
  const unknown = Object.freeze({ ...deps.defaults, known: false });
  const inForceOf = new Map<string, LoadSettings & { known: boolean }>();
  return {
    of(accountId) {
      if (accountId === undefined || !isKnown(accountId)) return unknown;
      let settings = inForceOf.get(accountId);
      if (!settings) {
        settings = Object.freeze({ ...inForce(owned.get(accountId)), known: true });
        inForceOf.set(accountId, settings);
      }
      return settings;
    },
    own: (accountId) => ({ ...owned.get(accountId) }),
    webhookCanary: (accountId) => owned.get(accountId)?.webhookCanary ?? deps.webhookCanary ?? false,
    change(accountId, change) {
      const own: OwnLoadSettings = { ...owned.get(accountId) };
      if (change.rateLimit === null) delete own.rateLimit;
      else if (change.rateLimit !== undefined) own.rateLimit = change.rateLimit;
      if (change.latency === null) delete own.latency;
      else if (change.latency !== undefined) own.latency = change.latency;
      if (change.webhookCanary === null) delete own.webhookCanary;
      else if (change.webhookCanary !== undefined) own.webhookCanary = change.webhookCanary;
      if (Object.keys(own).length === 0) owned.delete(accountId);
      else owned.set(accountId, own);
      inForceOf.delete(accountId);
      deps.save(JSON.stringify(Object.fromEntries(owned)));
      return inForce(own);
    },
  };
}
