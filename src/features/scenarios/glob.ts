/**
 * `*` wildcard matching in linear time: a scenario's `customer_email` pattern such as
 * `*a*a*a*a*a*a*X` made the regular expression it used to become backtrack exponentially
 * (6.5 s per create). The classic two-pointer algorithm remembers only the last `*` and
 * the text position it was tried at, so each text character is revisited at most once per
 * star: O(pattern × text) in the worst case, O(text) for the usual one or two stars.
 * Case-insensitive (both sides lower-cased); no other metacharacters.
 */

/** Whether `text` matches `pattern` (`*` any run, possibly empty), and how many comparisons it took. */
export function globMatchCounted(pattern: string, text: string): { matched: boolean; steps: number } {
  const p = pattern.toLowerCase();
  const t = text.toLowerCase();
  let pi = 0;
  let ti = 0;
  let star = -1; // index in p of the last `*` seen
  let resume = 0; // where in t that star's run ends so far
  let steps = 0;
  while (ti < t.length) {
    steps++;
    if (pi < p.length && p.charCodeAt(pi) === 42 /* * */) {
      star = pi++;
      resume = ti;
    } else if (pi < p.length && p.charCodeAt(pi) === t.charCodeAt(ti)) {
      pi++;
      ti++;
    } else if (star >= 0) {
      pi = star + 1;
      ti = ++resume;
    } else {
      return { matched: false, steps };
    }
  }
  while (pi < p.length && p.charCodeAt(pi) === 42) pi++;
  return { matched: pi === p.length, steps };
}

/** Whether `text` matches `pattern` (`*` any run, case-insensitive), in linear time. */
export function globMatch(pattern: string, text: string): boolean {
  return globMatchCounted(pattern, text).matched;
}
