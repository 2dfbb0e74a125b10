/**
 * The sandbox's behaviour checks, written once and run against any server through its `/v4`
 * base only: each has a stable name and the one-line rule it checks.
 */
import type { Check } from './check-helpers.js';
import { FLOW_CHECKS } from './checks-flows.js';
import { CHECKOUT_CHECKS, SCOPE_CHECKS } from './checks-modes.js';
import { REQUEST_CHECKS } from './checks-requests.js';

/** Every check, in the order they run. */
export const CHECKS: Check[] = [...REQUEST_CHECKS, ...CHECKOUT_CHECKS, ...SCOPE_CHECKS, ...FLOW_CHECKS];
