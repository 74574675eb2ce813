/**
 * The size of a key's head record (layout.ts encodes it; docs/design.md,
 * "Per-key ordering"), apart from the layout so that the apply bound
 * (apply-bound.ts) can count it without knowing the encoding.
 */

/** Most waiting messages a head names (a seek reads this many and one more). */
export const MAX_NAMED_WAITS = 8;

/** Largest head record: front, count, flags, the first named, the floor, a count and the others named, the front's due. */
export const MAX_KEY_HEAD_BYTES = 13 + 16 + 16 + 1 + 16 * (MAX_NAMED_WAITS - 1) + 8;
