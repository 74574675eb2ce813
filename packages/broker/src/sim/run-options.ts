/** Virtual ms of a run's chaotic phase, unless --chaos-ms says otherwise. */
export const DEFAULT_CHAOS_MS = 8_000;

/** Odd seeds run 5 nodes, even seeds 3, unless --nodes is given. */
export function nodesForBrokerSeed(seed: number): 3 | 5 {
  return seed % 2 === 1 ? 5 : 3;
}

export const FAULT_KINDS = ['crash', 'partition', 'loss', 'skew', 'transfer', 'membership'] as const;
/** A kind of fault of the chaotic phase; `hostile` doubles the rate of all of them. */
export type FaultKind = (typeof FAULT_KINDS)[number] | 'hostile';

/** Every fault; every fourth seed also `hostile`, unless --faults is given. */
export function faultsForBrokerSeed(seed: number): FaultKind[] {
  return seed % 4 === 0 ? [...FAULT_KINDS, 'hostile'] : [...FAULT_KINDS];
}

/**
 * Whether a seed's run orders its topic by key and gives some of its
 * messages ordering keys (per-key ordering's rules): one seed in eight,
 * chosen so that the seeds recorded in tests before ordering existed keep
 * their runs.
 */
export function orderingForBrokerSeed(seed: number): boolean {
  return seed % 8 === 6;
}
