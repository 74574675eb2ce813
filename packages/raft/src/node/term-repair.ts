/**
 * Repair of a stored term that is out of bounds (peer-admission.ts): one a
 * forged message left in the hard state before terms were bounded. Such a
 * term came from no election, so no member acted on it; the repair writes a
 * term above every term in the log, with no vote, and keeps the commit index.
 * Run on a stopped node only (the caller checks).
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../log/atomic-file.js';
import { encodeHardState, HARD_STATE_FILE, HardStateFile } from '../log/hard-state.js';
import { LogStore } from '../log/log-store.js';
import type { HardState } from '../types.js';
import { MAX_TERM_AHEAD, storedTermProblem } from './peer-admission.js';

export interface StoredTerm {
  readonly hardState: HardState;
  /** Term of the last entry in the log (or of the snapshot the log starts from). */
  readonly lastLogTerm: number;
  /** Why the term must be repaired, or undefined when it is within bounds. */
  readonly problem: string | undefined;
}

/** Reads the hard state and the log's last term of a Raft data directory. */
export async function inspectStoredTerm(raftDir: string): Promise<StoredTerm> {
  const hardState = HardStateFile.open(raftDir).get();
  const log = LogStore.open({ dir: raftDir });
  try {
    const lastLogTerm = log.term(log.lastIndex()) ?? 0;
    return { hardState, lastLogTerm, problem: storedTermProblem(hardState.term, lastLogTerm)?.message };
  } finally {
    await log.close();
  }
}

export class TermRepairError extends Error {
  override name = 'TermRepairError';
}

/**
 * Replaces an out-of-bounds term with `term` (default: the log's last term
 * + 1), clearing the vote. Throws TermRepairError, changing nothing, when the
 * stored term is within bounds (unless `force`) or `term` is not above the
 * log's last term or is itself out of bounds. Resolves with the states before
 * and after.
 */
export async function resetStoredTerm(
  raftDir: string,
  options: { term?: number; force?: boolean } = {},
): Promise<{ before: StoredTerm; after: HardState }> {
  const before = await inspectStoredTerm(raftDir);
  const { hardState, lastLogTerm } = before;
  if (before.problem === undefined && !options.force) {
    throw new TermRepairError(
      `hard state term ${hardState.term} is within bounds (log's last term ${lastLogTerm}, MAX_TERM_AHEAD ${MAX_TERM_AHEAD}): nothing to repair (--force rewrites it anyway)`,
    );
  }
  const term = options.term ?? lastLogTerm + 1;
  if (!Number.isSafeInteger(term) || term <= lastLogTerm) {
    throw new TermRepairError(
      `new term ${term} must be an integer above the log's last term ${lastLogTerm}: a vote already cast in a term of the log must never be cast again`,
    );
  }
  if (storedTermProblem(term, lastLogTerm) !== undefined) {
    throw new TermRepairError(
      `new term ${term} is itself out of bounds: at most the log's last term ${lastLogTerm} + MAX_TERM_AHEAD ${MAX_TERM_AHEAD}`,
    );
  }
  const after: HardState = { term, vote: '', commit: hardState.commit };
  await writeFileAtomic(join(raftDir, HARD_STATE_FILE), encodeHardState(after));
  return { before, after };
}
