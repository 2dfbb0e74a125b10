/**
 * The generated corpus of merchant journeys that measures the go-live report: what each
 * journey does (its episodes, as data that prints), the documented list of defects with the
 * finding code each must raise, and the generator (fast-check, a fixed seed).
 *
 * A journey runs in its own account. A careful one makes no mistake and must get no finding;
 * a careless one makes exactly one defect of `DEFECTS` and must get that defect's code, plus
 * the codes the defect inevitably implies (`implies`), and nothing else. The runner is
 * `go-live-corpus-runner.ts`; the test is `test/e2e/go-live/corpus.test.ts`.
 */
import fc from 'fast-check';
import { FINDING_CODES, type CoverageScenario, type GoLiveFindingCode } from '../../src/features/go-live/go-live.js';

/**
 * The codes the corpus measures: the report's finding codes, with the codes of the fourth
 * release's rules (`duplicate_refund_risk`, `coverage_missing`). `webhook_state_mismatch` is
 * left out: it is raised only by the check-webhooks battery against a state URL, not by a
 * merchant's own traffic.
 */
export type CorpusCode = Exclude<GoLiveFindingCode, 'webhook_state_mismatch'>;
export const CORPUS_CODES = FINDING_CODES.filter((code): code is CorpusCode => code !== 'webhook_state_mismatch');

/** How an answer never reaches the client: the client gives up on a held create, or a fault hides a completed one. */
export const LOST_ANSWER_FORMS = ['timeout-after', '503-after', 'reset-after', 'latency'] as const;
export type LostAnswerForm = (typeof LOST_ANSWER_FORMS)[number];

/** What a webhook handler does wrong (careless) or right (careful). */
export type HandlerKind =
  | { kind: 'careful' }
  /** Acknowledges everything, bad signatures included. */
  | { kind: 'acks_everything' }
  /** Verifies signatures, but a second identical webhook fails on its unique index (500). */
  | { kind: 'refuses_duplicates' }
  /** One order's webhooks: answered slowly, never in time, or without the acknowledgement. */
  | { kind: 'slow' | 'hangs'; order: string }
  | { kind: 'no_ack'; order: string; answer: 'status_500' | 'plain_ok' | 'other_json' };

/** One episode of a journey: a few calls that belong together. Plain data, so that it prints. */
export type Episode =
  // ---- careful (and noise)
  | { do: 'order'; mode: Mode; order: string | null; amount: number; currency: string; then: 'settle' | 'fail' | 'leave'; reads: number }
  | { do: 'retry_5xx_same_key'; mode: Mode; order: string; amount: number; currency: string }
  | { do: 'lost_answer_same_key'; mode: Mode; order: string | null; amount: number; currency: string; form: LostAnswerForm }
  | { do: 'wait_retry_after'; mode: Mode; order: string; amount: number; currency: string }
  | {
      do: 'retry_failed_order';
      mode: Mode;
      order: string;
      amount: number;
      currency: string;
      how: 'declined_card' | 'cancelled_page' | 'expired_link';
    }
  | { do: 'equal_partial_refunds'; mode: Mode; order: string; amount: number; currency: string }
  | { do: 'refund_lost_answer_same_key'; mode: Mode; order: string; amount: number; currency: string; form: LostAnswerForm }
  | { do: 'basket_under_rate_limit'; mode: Mode; customers: number; amount: number; currency: string; rateLimit: number }
  | { do: 'two_orders_two_keys'; mode: Mode; amount: number; currency: string }
  | { do: 'webhook_fault'; mode: Mode; order: string; amount: number; currency: string; fault: 'bad_signature' | 'duplicate' }
  | { do: 'subscription'; order: string; amount: number }
  | { do: 'reads'; lists: number; buyers: boolean }
  /** The account's webhook canary turned on, then an order settled: its handler answers the canary (careless if it acknowledges it). */
  | { do: 'canary'; mode: Mode; order: string; amount: number; currency: string }
  /**
   * The conformance kit's traffic (its `User-Agent`) in the merchant's account: creates and a
   * refund without a key, twice each, a live key, an invalid create three times, card data
   * from a checkout account, a payment settled with no notification URL. The merchant's report
   * must not count any of it.
   */
  | { do: 'conformance_traffic'; mode: Mode; amount: number; currency: string }
  // ---- defects
  | { do: 'create_without_key'; mode: Mode; order: string; amount: number; currency: string }
  | { do: 'refund_without_key'; mode: Mode; order: string; amount: number; currency: string }
  | { do: 'subscription_without_key'; order: string; amount: number }
  | {
      do: 'lost_answer_new_key';
      mode: Mode;
      order: string | null;
      amount: number;
      currency: string;
      form: LostAnswerForm;
      retryKey: 'new' | 'none';
    }
  | { do: 'same_order_two_keys'; mode: Mode; order: string; amount: number; currency: string; first: 'leave' | 'settle' }
  | { do: 'identical_keyless_creates'; mode: Mode; amount: number; currency: string }
  | { do: 'refund_lost_answer_new_key'; mode: Mode; order: string; amount: number; currency: string; form: LostAnswerForm }
  | { do: 'identical_keyless_refunds'; mode: Mode; order: string; amount: number; currency: string }
  | { do: 'repeat_invalid'; mode: Mode; times: number }
  | { do: 'live_key'; withAccount: true }
  | { do: 'checkout_card_data'; form: 'payment_method' | 'card_object' | 'cvv_only'; order: string }
  | {
      do: 'ignore_retry_after';
      mode: Mode;
      form: 'create_fault' | 'read_fault' | 'rate_limit';
      order: string;
      amount: number;
      currency: string;
    }
  | { do: 'poll_pending'; mode: Mode; order: string; amount: number; currency: string; reads: number }
  | { do: 'trigger_fault'; mode: Mode; order: string; amount: number; currency: string; fault: 'bad_signature' | 'duplicate' }
  | { do: 'settled_order'; mode: Mode; order: string; amount: number; currency: string }
  | { do: 'no_notification_url'; mode: Mode; order: string; amount: number; currency: string }
  | { do: 'unreachable_url'; mode: Mode; order: string; amount: number; currency: string }
  | { do: 'subscription_top_level_url'; order: string; amount: number };

export type Mode = 'direct' | 'checkout';

/** A defect of the documented list: what the careless merchant does, and what the report must say. */
export interface Defect {
  name: string;
  code: CorpusCode;
  /** Codes the defect inevitably raises as well (e.g. a keyless retry is also a create without a key). */
  implies: CorpusCode[];
  /** The account's mode it needs, if one. */
  mode?: Mode;
  what: string;
}

/** The documented defect list (the go-live guide shows it). */
export const DEFECTS: readonly Defect[] = [
  { name: 'payment_without_key', code: 'missing_idempotency_key', implies: [], what: 'a payment created without an Idempotency-Key' },
  { name: 'refund_without_key', code: 'missing_idempotency_key', implies: [], what: 'a refund created without an Idempotency-Key' },
  {
    name: 'subscription_without_key',
    code: 'missing_idempotency_key',
    implies: [],
    mode: 'direct',
    what: 'a subscription created without an Idempotency-Key',
  },
  {
    name: 'lost_answer_new_key',
    code: 'duplicate_charge_risk',
    implies: [],
    what: 'a payment whose answer never arrived (client gave up on a held create, or a *-after fault) retried under a new key, same external_identifier',
  },
  {
    name: 'lost_answer_new_key_no_order_id',
    code: 'duplicate_charge_risk',
    implies: [],
    what: 'the same, without external_identifier (the identical body under a new key)',
  },
  {
    name: 'lost_answer_no_key',
    code: 'duplicate_charge_risk',
    implies: ['missing_idempotency_key'],
    what: 'a payment whose answer never arrived retried without any key',
  },
  {
    name: 'same_order_two_keys',
    code: 'duplicate_charge_risk',
    implies: [],
    what: 'one order (external_identifier) created under two keys while the first was PENDING or SUCCEEDED',
  },
  {
    name: 'identical_keyless_creates',
    code: 'duplicate_charge_risk',
    implies: ['missing_idempotency_key'],
    what: 'two identical create bodies without external_identifier and without any key within 60 s',
  },
  {
    name: 'refund_lost_answer_new_key',
    code: 'duplicate_refund_risk',
    implies: [],
    what: 'a refund whose answer never arrived retried under a new key (same transaction and amount)',
  },
  {
    name: 'identical_keyless_refunds',
    code: 'duplicate_refund_risk',
    implies: ['missing_idempotency_key'],
    what: 'two identical refunds without any key within 60 s',
  },
  { name: 'repeat_invalid', code: 'repeated_invalid_request', implies: [], what: 'the same invalid create sent three or more times' },
  { name: 'live_key', code: 'live_key_used', implies: [], what: 'a call with an sk_live_ key and the account header' },
  {
    name: 'checkout_card_data',
    code: 'card_data_in_checkout_mode',
    implies: [],
    mode: 'checkout',
    what: 'a checkout-mode create carrying a card number or security code (spec names or others, refused or accepted)',
  },
  {
    name: 'ignore_retry_after',
    code: 'ignored_retry_after',
    implies: [],
    what: 'a 429 (fault or --rate-limit) sent again at once with the same key (or, for a read, without any)',
  },
  { name: 'poll_pending', code: 'polling_instead_of_webhooks', implies: [], what: 'more than 10 reads of one PENDING payment' },
  {
    name: 'handler_acks_bad_signature',
    code: 'webhook_signature_not_verified',
    implies: [],
    what: 'a handler that acknowledges a badly signed webhook (fault bad_signature)',
  },
  {
    name: 'handler_ignores_canary',
    code: 'webhook_signature_not_verified',
    implies: [],
    what: 'a handler that never verifies signatures and never asks for bad_signature, with the webhook canary on: it acknowledges the canary',
  },
  {
    name: 'handler_no_ack',
    code: 'webhook_not_acknowledged',
    implies: [],
    what: "a handler that answers one order's webhooks with 500, a plain OK, or other JSON",
  },
  { name: 'handler_slow', code: 'webhook_slow_handler', implies: [], what: 'a handler slower than the slow threshold, within the timeout' },
  { name: 'handler_hangs', code: 'webhook_timeout', implies: [], what: 'a handler that does not answer within the delivery timeout' },
  {
    name: 'handler_refuses_duplicate',
    code: 'webhook_duplicate_not_tolerated',
    implies: [],
    what: 'a handler that fails a duplicate delivery (fault duplicate) it acknowledged the first time',
  },
  {
    name: 'no_notification_url',
    code: 'no_webhook_target',
    implies: [],
    what: 'a payment settled with no notification_url and no default',
  },
  {
    name: 'unreachable_url',
    code: 'webhook_unreachable',
    implies: [],
    what: 'a notification_url on a port nobody listens on, attempted twice',
  },
  {
    name: 'subscription_top_level_url',
    code: 'ignored_webhook_field',
    implies: [],
    mode: 'direct',
    what: 'a subscription sent with a top-level notification_url (beside payment_method.webhooks_url)',
  },
  {
    name: 'coverage_not_exercised',
    code: 'coverage_missing',
    implies: [],
    what: 'a report asked with require_coverage naming a scenario the journey never exercised',
  },
];

/** Coverage scenarios no episode exercises: a careless journey requires one of them. */
export const NEVER_EXERCISED: readonly CoverageScenario[] = [
  'subscription_renewal',
  'subscription_past_due',
  'webhook_retry',
  'webhook_out_of_order',
];

export interface Journey {
  /** Its place in the corpus (0-based). */
  index: number;
  mode: Mode;
  /** null: careful. */
  defect: Defect | null;
  handler: HandlerKind;
  episodes: Episode[];
  /** Asked of the report as `require_coverage`. */
  requireCoverage: CoverageScenario[];
  /** The codes the report must give: the defect's and what it implies; none for a careful journey. */
  expected: CorpusCode[];
}

const CURRENCIES = [
  { currency: 'USD', amounts: [1050, 2599, 4200, 12000, 999] },
  { currency: 'EUR', amounts: [1500, 3350, 8000] },
  { currency: 'THB', amounts: [35050, 120000, 9900] },
  { currency: 'JPY', amounts: [1200, 5400] },
  { currency: 'GBP', amounts: [2000, 7450] },
];

/** The random part of one journey, drawn by fast-check; the runner makes it concrete by the journey's index. */
interface Draw {
  direct: boolean;
  money: { currency: string; amount: number }[];
  careful: number[];
  noise: number[];
  forms: number[];
  flags: boolean[];
}

const drawArb: fc.Arbitrary<Draw> = fc.record({
  direct: fc.boolean(),
  money: fc.array(
    fc
      .integer({ min: 0, max: CURRENCIES.length - 1 })
      .chain((c) => fc.constantFrom(...CURRENCIES[c]!.amounts).map((amount) => ({ currency: CURRENCIES[c]!.currency, amount }))),
    { minLength: 8, maxLength: 8 },
  ),
  careful: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
  noise: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
  forms: fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
  flags: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
});

/** The careful episodes a journey draws from, and what each exercises (for `require_coverage`). */
type Maker = (ctx: MakeContext) => Episode | null;
interface MakeContext {
  mode: Mode;
  order: () => string;
  money: () => { currency: string; amount: number };
  form: number;
  flag: boolean;
}

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;

const CAREFUL_MAKERS: Maker[] = [
  (c) => ({ do: 'retry_5xx_same_key', mode: c.mode, order: c.order(), ...c.money() }),
  (c) => ({
    do: 'lost_answer_same_key',
    mode: c.mode,
    order: c.flag ? c.order() : null,
    ...c.money(),
    form: pick(LOST_ANSWER_FORMS, c.form),
  }),
  (c) => ({ do: 'wait_retry_after', mode: c.mode, order: c.order(), ...c.money() }),
  (c) => ({
    do: 'retry_failed_order',
    mode: c.mode,
    order: c.order(),
    ...c.money(),
    how: c.mode === 'direct' ? 'declined_card' : pick(['cancelled_page', 'expired_link'] as const, c.form),
  }),
  (c) => ({ do: 'equal_partial_refunds', mode: c.mode, order: c.order(), ...c.money() }),
  (c) => ({ do: 'refund_lost_answer_same_key', mode: c.mode, order: c.order(), ...c.money(), form: pick(LOST_ANSWER_FORMS, c.form) }),
  (c) => ({ do: 'basket_under_rate_limit', mode: c.mode, customers: 3 + (c.form % 3), ...c.money(), rateLimit: 2 }),
  (c) => ({ do: 'two_orders_two_keys', mode: c.mode, ...c.money() }),
  (c) => ({ do: 'webhook_fault', mode: c.mode, order: c.order(), ...c.money(), fault: c.flag ? 'bad_signature' : 'duplicate' }),
  (c) => (c.mode === 'direct' ? { do: 'subscription', order: c.order(), amount: c.money().amount } : null),
  (c) => ({ do: 'canary', mode: c.mode, order: c.order(), ...c.money() }),
  (c) => ({ do: 'conformance_traffic', mode: c.mode, ...c.money() }),
];

const NOISE_MAKERS: Maker[] = [
  (c) => ({
    do: 'order',
    mode: c.mode,
    order: c.flag ? c.order() : null,
    ...c.money(),
    then: pick(['settle', 'fail', 'leave'] as const, c.form),
    reads: c.form % 4,
  }),
  (c) => ({ do: 'reads', lists: 1 + (c.form % 3), buyers: c.flag }),
  (c) => ({ do: 'order', mode: c.mode, order: c.order(), ...c.money(), then: 'settle', reads: 1 }),
];

/** The defect's own episode(s) and handler. */
function defectEpisodes(d: Defect, c: MakeContext): { episodes: Episode[]; handler: HandlerKind } {
  const careful: HandlerKind = { kind: 'careful' };
  const m = c.mode;
  const special = c.order();
  switch (d.name) {
    case 'payment_without_key':
      return { episodes: [{ do: 'create_without_key', mode: m, order: c.order(), ...c.money() }], handler: careful };
    case 'refund_without_key':
      return { episodes: [{ do: 'refund_without_key', mode: m, order: c.order(), ...c.money() }], handler: careful };
    case 'subscription_without_key':
      return { episodes: [{ do: 'subscription_without_key', order: c.order(), amount: c.money().amount }], handler: careful };
    case 'lost_answer_new_key':
    case 'lost_answer_new_key_no_order_id':
    case 'lost_answer_no_key':
      return {
        episodes: [
          {
            do: 'lost_answer_new_key',
            mode: m,
            order: d.name === 'lost_answer_new_key_no_order_id' ? null : c.order(),
            ...c.money(),
            form: pick(LOST_ANSWER_FORMS, c.form),
            retryKey: d.name === 'lost_answer_no_key' ? 'none' : 'new',
          },
        ],
        handler: careful,
      };
    case 'same_order_two_keys':
      return {
        episodes: [{ do: 'same_order_two_keys', mode: m, order: c.order(), ...c.money(), first: c.flag ? 'settle' : 'leave' }],
        handler: careful,
      };
    case 'identical_keyless_creates':
      return { episodes: [{ do: 'identical_keyless_creates', mode: m, ...c.money() }], handler: careful };
    case 'refund_lost_answer_new_key':
      return {
        episodes: [{ do: 'refund_lost_answer_new_key', mode: m, order: c.order(), ...c.money(), form: pick(LOST_ANSWER_FORMS, c.form) }],
        handler: careful,
      };
    case 'identical_keyless_refunds':
      return { episodes: [{ do: 'identical_keyless_refunds', mode: m, order: c.order(), ...c.money() }], handler: careful };
    case 'repeat_invalid':
      return { episodes: [{ do: 'repeat_invalid', mode: m, times: 3 + (c.form % 2) }], handler: careful };
    case 'live_key':
      return { episodes: [{ do: 'live_key', withAccount: true }], handler: careful };
    case 'checkout_card_data':
      return {
        episodes: [
          { do: 'checkout_card_data', form: pick(['payment_method', 'card_object', 'cvv_only'] as const, c.form), order: c.order() },
        ],
        handler: careful,
      };
    case 'ignore_retry_after':
      return {
        episodes: [
          {
            do: 'ignore_retry_after',
            mode: m,
            form: pick(['create_fault', 'read_fault', 'rate_limit'] as const, c.form),
            order: c.order(),
            ...c.money(),
          },
        ],
        handler: careful,
      };
    case 'poll_pending':
      return { episodes: [{ do: 'poll_pending', mode: m, order: c.order(), ...c.money(), reads: 11 + (c.form % 4) }], handler: careful };
    case 'handler_acks_bad_signature':
      return {
        episodes: [{ do: 'trigger_fault', mode: m, order: c.order(), ...c.money(), fault: 'bad_signature' }],
        handler: { kind: 'acks_everything' },
      };
    case 'handler_ignores_canary':
      return { episodes: [{ do: 'canary', mode: m, order: c.order(), ...c.money() }], handler: { kind: 'acks_everything' } };
    case 'handler_refuses_duplicate':
      return {
        episodes: [{ do: 'trigger_fault', mode: m, order: c.order(), ...c.money(), fault: 'duplicate' }],
        handler: { kind: 'refuses_duplicates' },
      };
    case 'handler_no_ack':
      return {
        episodes: [{ do: 'settled_order', mode: m, order: special, ...c.money() }],
        handler: { kind: 'no_ack', order: special, answer: pick(['status_500', 'plain_ok', 'other_json'] as const, c.form) },
      };
    case 'handler_slow':
    case 'handler_hangs':
      return {
        episodes: [{ do: 'settled_order', mode: m, order: special, ...c.money() }],
        handler: { kind: d.name === 'handler_slow' ? 'slow' : 'hangs', order: special },
      };
    case 'no_notification_url':
      return { episodes: [{ do: 'no_notification_url', mode: m, order: c.order(), ...c.money() }], handler: careful };
    case 'unreachable_url':
      return { episodes: [{ do: 'unreachable_url', mode: m, order: c.order(), ...c.money() }], handler: careful };
    case 'subscription_top_level_url':
      return { episodes: [{ do: 'subscription_top_level_url', order: c.order(), amount: c.money().amount }], handler: careful };
    case 'coverage_not_exercised':
      return { episodes: [], handler: careful };
    default:
      throw new Error(`no episodes for defect ${d.name}`);
  }
}

/** What an episode exercises for sure (with a careful handler), for `require_coverage`. */
export function covers(e: Episode): CoverageScenario[] {
  switch (e.do) {
    case 'order':
      return e.then === 'settle' ? ['payment_succeeded'] : e.then === 'fail' ? ['payment_failed'] : [];
    case 'retry_5xx_same_key':
      return ['api_fault', 'payment_succeeded'];
    case 'lost_answer_same_key':
      return e.form === 'latency' ? ['payment_succeeded'] : ['api_fault', 'payment_succeeded'];
    case 'wait_retry_after':
      return ['api_fault'];
    case 'retry_failed_order':
      return e.how === 'cancelled_page'
        ? ['payment_failed', 'customer_cancelled', 'payment_succeeded']
        : e.how === 'expired_link'
          ? ['payment_failed', 'link_expired', 'payment_succeeded']
          : ['payment_failed', 'payment_succeeded'];
    case 'equal_partial_refunds':
      return ['payment_succeeded', 'refund', 'partial_refund'];
    case 'refund_lost_answer_same_key':
      return ['payment_succeeded', 'refund', 'partial_refund'];
    case 'webhook_fault':
      return ['payment_succeeded', e.fault === 'bad_signature' ? 'webhook_bad_signature' : 'webhook_duplicate'];
    case 'subscription':
      return ['payment_succeeded'];
    case 'canary':
      return ['payment_succeeded', 'webhook_bad_signature'];
    default:
      return [];
  }
}

/** Episodes that move the account's clock by more than the duplicate windows run first. */
const movesClock = (e: Episode): boolean => e.do === 'retry_failed_order' && e.how === 'expired_link';

/**
 * The corpus: `size` journeys from `seed`. Journeys alternate careful and careless (two in
 * five careful), and the careless ones go through the defect list in turn, so every defect
 * appears once `size` is at least about 2.5 times the list; the rest (mode, amounts,
 * currencies, forms, careful episodes and noise) is drawn by fast-check.
 */
export function generateCorpus(size: number, seed: number): Journey[] {
  const draws = fc.sample(drawArb, { seed, numRuns: size });
  let careless = 0;
  return draws.map((draw, index) => {
    const isCareful = index % 5 === 1 || index % 5 === 3;
    const defect = isCareful ? null : DEFECTS[careless++ % DEFECTS.length]!;
    const mode: Mode = defect?.mode ?? (draw.direct ? 'direct' : 'checkout');
    let orders = 0;
    let money = 0;
    let form = 0;
    const ctx = (n: number): MakeContext => ({
      mode,
      order: () => `j${index}-o${++orders}`,
      money: () => draw.money[money++ % draw.money.length]!,
      form: draw.forms[form++ % draw.forms.length]! + n,
      flag: draw.flags[n % draw.flags.length]!,
    });
    const episodes: Episode[] = [];
    for (const n of draw.careful) {
      const made = pick(CAREFUL_MAKERS, n)(ctx(n));
      if (made) episodes.push(made);
    }
    for (const n of draw.noise) {
      const made = pick(NOISE_MAKERS, n)(ctx(n));
      if (made) episodes.push(made);
    }
    episodes.sort((a, b) => Number(movesClock(b)) - Number(movesClock(a)));
    let handler: HandlerKind = { kind: 'careful' };
    if (defect) {
      const own = defectEpisodes(defect, ctx(index));
      episodes.push(...own.episodes);
      handler = own.handler;
    }
    const exercised = [...new Set(episodes.flatMap(covers))];
    // Careful journeys require part of what they went through; the coverage defect adds a
    // scenario never exercised; other careless journeys require nothing (a careless handler may
    // leave a scenario unseen, which would be a second finding).
    const requireCoverage: CoverageScenario[] = !defect
      ? exercised.filter((_, i) => draw.flags[i % draw.flags.length])
      : defect.code === 'coverage_missing'
        ? [...exercised.slice(0, 1), pick(NEVER_EXERCISED, index)]
        : [];
    return {
      index,
      mode,
      defect,
      handler,
      episodes,
      requireCoverage,
      expected: defect ? [...new Set([defect.code, ...defect.implies])].sort() : [],
    };
  });
}
