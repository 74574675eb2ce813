/**
 * The simulator cannot go on: its harness was misused (a node that does not
 * exist, a negative delay) or a run stalled where the harness waits for
 * progress (no leader to take a membership change, a cluster that never
 * settles). A run reports it as an exception, apart from the invariants the
 * checker and the core assert (checker.ts's InvariantViolation,
 * @fermata/base's InvariantError), so a stalled harness is never mistaken for
 * a broken rule of Raft.
 */
export class SimulationError extends Error {
  // Its name stays 'Error': the workload records a membership change that
  // gave up as text in the trace ("gave up: Error: ..."), and the trace's
  // sha256 is each seed's digest, which must not move with a rename.
  override readonly name = 'Error';
}
