/**
 * The closest of some names to a mistyped one, for errors that say "did you
 * mean": the server (unknown topics and groups, configuration keys) and the
 * SDK (unknown option names) both use it.
 */

/** Edits (insertions, deletions, substitutions) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] as number;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] as number;
      prev[j] = Math.min(up + 1, (prev[j - 1] as number) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length] as number;
}

/** Most edits a name may be from a candidate and still be taken for a typo of it. */
export function typoDistance(name: string): number {
  return Math.max(2, Math.floor(name.length / 4));
}

/**
 * The candidates within `typoDistance(name)` edits of `name` (case ignored),
 * nearest first (ties in the candidates' order), at most `limit`.
 */
export function closestNames(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const lower = name.toLowerCase();
  const max = typoDistance(name);
  const near: Array<{ c: string; d: number; i: number }> = [];
  let i = 0;
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d <= max && c !== name) near.push({ c, d, i });
    i++;
  }
  near.sort((x, y) => x.d - y.d || x.i - y.i);
  return near.slice(0, limit).map((n) => n.c);
}

/**
 * What to say after an unknown `name`: `; did you mean a or b?` with the
 * closest of `candidates`, else ` (<label>: every candidate)`.
 */
export function suggestNames(name: string, candidates: readonly string[], label: string): string {
  const near = closestNames(name, candidates);
  return near.length > 0 ? `; did you mean ${near.join(' or ')}?` : ` (${label}: ${candidates.join(', ')})`;
}
