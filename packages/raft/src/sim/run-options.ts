/** Events in the chaotic phase of one run, unless --steps says otherwise. */
export const DEFAULT_STEPS = 10_000;

/** Odd seeds run 5 nodes, even seeds 3, unless --nodes is given. */
export function nodesForSeed(seed: number): 3 | 5 {
  return seed % 2 === 1 ? 5 : 3;
}

/** Every fourth seed runs the hostile schedule (see SimOptions.hostile), unless --hostile forces it for all. */
export function hostileForSeed(seed: number): boolean {
  return seed % 4 === 0;
}
