import { describe, expect, it } from 'vitest';
import { globMatch, globMatchCounted } from '../../../src/features/scenarios/glob.js';

/** The same answer as the regular expression the matcher used before (small inputs only). */
function byRegex(pattern: string, text: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 'i').test(text);
}

describe('globMatch (scenario customer_email patterns)', () => {
  it('agrees with the wildcard regular expression on ordinary and tricky patterns', () => {
    const patterns = ['*@decline.test', 'ci+*@example.com', 'anna@example.com', '*', '**', 'a*b*c', '*a*', 'a.b', '*x*y*', '', 'a**b'];
    const texts = [
      'bob@decline.test',
      'BOB@DECLINE.TEST',
      'bob@decline.test.com',
      'bob@declineXtest',
      'ci+run42@example.com',
      'anna@example.com',
      '',
      'abc',
      'aXbYc',
      'ab',
      'a.b',
      'axb',
      'yx',
      'xy',
      'aab',
    ];
    for (const p of patterns) for (const t of texts) expect(globMatch(p, t), `${p} vs ${t}`).toBe(byRegex(p, t));
  });

  it('a pathological pattern against a long address takes at most pattern x text comparisons (no exponential backtracking)', () => {
    const pattern = '*a*a*a*a*a*a*X';
    const text = `${'a'.repeat(5_000)}@example.com`;
    const { matched, steps } = globMatchCounted(pattern, text);
    expect(matched).toBe(false);
    expect(steps).toBeLessThanOrEqual((pattern.length + 1) * (text.length + 1));
    // and a match at the very end is still found
    expect(globMatch(pattern, `${'a'.repeat(5_000)}x`)).toBe(true);
  });
});
