/** Virtual ms of a run's chaotic phase, unless --chaos-ms says otherwise. */
export const DEFAULT_CHAOS_MS = 8_000;

/** Odd seeds run 5 nodes, even seeds 3, unless --nodes is given. */
export function nodesForBrokerSeed(seed: number): 3 | 5 {
  return seed % 2 === 1 ? 5 : 3;
}
