/**
 * The Raft hard state (term, vote, commit) in one small checksummed file,
 * replaced atomically on every save (see atomic-file.ts).
 *
 * Term and vote must be durable before a vote or append acknowledgement is
 * sent. The commit index is volatile in Raft (it is re-learned from the
 * leader), so a driver may choose to save only when term or vote change
 * (`mustPersist`), keeping one fsync per Ready on the hot path.
 *
 * The file also records `votedTerm`: the highest term in which this node has
 * cast a vote (for itself or another), a bound that survives a later term's
 * save (which clears the vote). Every vote is saved before it leaves, so the
 * bound covers every vote sent. `fermata repair reset-term` takes a term above
 * it, so a repaired node never votes twice in a term (term-repair.ts). A file
 * written before the field existed has none: every vote in it was cast at or
 * below its term, which is then the bound.
 */
import { join } from 'node:path';
import type { HardState } from '../types.js';
import {
  type AtomicWriteOptions,
  encodeRecord,
  readRecordFile,
  removeStaleTempFiles,
  writeFileAtomic,
} from './atomic-file.js';
import { CorruptionError, invariant } from './errors.js';
import { type FileSystem, nodeFileSystem } from './file-system.js';

export const HARD_STATE_FILE = 'hard-state';
export const EMPTY_HARD_STATE: HardState = { term: 0, vote: '', commit: 0 };

/** What the file holds: the hard state and the highest term in which a vote was cast. */
export interface StoredHardState {
  readonly state: HardState;
  readonly votedTerm: number;
  /** False for a file written before `votedTerm` was recorded (the term stands in). */
  readonly votedTermRecorded: boolean;
}

export function encodeHardState(state: HardState, votedTerm: number): Buffer {
  const { term, vote, commit, joinFloor } = state;
  const body =
    joinFloor === undefined
      ? { term, vote, commit, votedTerm }
      : { term, vote, commit, votedTerm, joinFloor };
  return encodeRecord(Buffer.from(JSON.stringify(body), 'utf8'));
}

export function decodeHardState(path: string, body: Buffer): StoredHardState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new CorruptionError(path, 12, 'hard state is not valid JSON');
  }
  const { term, vote, commit, votedTerm, joinFloor } = (parsed ?? {}) as Record<string, unknown>;
  if (
    !Number.isSafeInteger(term) ||
    typeof vote !== 'string' ||
    !Number.isSafeInteger(commit) ||
    (votedTerm !== undefined && !Number.isSafeInteger(votedTerm)) ||
    (joinFloor !== undefined && !Number.isSafeInteger(joinFloor))
  ) {
    throw new CorruptionError(path, 12, `hard state has wrong fields: ${body.toString('utf8')}`);
  }
  const base = { term: term as number, vote, commit: commit as number };
  if (votedTerm === undefined) {
    // Written before vote terms and join floors were recorded: no floor (as that version had none).
    return { state: { ...base, joinFloor: 0 }, votedTerm: base.term, votedTermRecorded: false };
  }
  const state = joinFloor === undefined ? base : { ...base, joinFloor: joinFloor as number };
  return { state, votedTerm: votedTerm as number, votedTermRecorded: true };
}

/** True when `next` changes what must be durable before answering (term or vote), or the join floor. */
export function mustPersist(prev: HardState, next: HardState): boolean {
  return prev.term !== next.term || prev.vote !== next.vote || prev.joinFloor !== next.joinFloor;
}

export class HardStateFile {
  private current: HardState;
  private voted: number;
  /** The bound the next save writes: saves reach the disk in call order, so each carries every vote before it. */
  private votedQueued: number;
  /** Saves run one at a time so they reach the disk in call order. */
  private queue: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    initial: StoredHardState,
    private readonly fs: FileSystem,
  ) {
    this.current = initial.state;
    this.voted = initial.votedTerm;
    this.votedQueued = initial.votedTerm;
  }

  /** Opens (creating `dir` if needed) `<dir>/hard-state`; a missing file is the empty state. */
  static open(dir: string, fs: FileSystem = nodeFileSystem): HardStateFile {
    fs.mkdir(dir);
    const path = join(dir, HARD_STATE_FILE);
    removeStaleTempFiles(dir, path, fs);
    const body = readRecordFile(path, fs);
    return new HardStateFile(
      path,
      body === undefined
        ? { state: EMPTY_HARD_STATE, votedTerm: 0, votedTermRecorded: true }
        : decodeHardState(path, body),
      fs,
    );
  }

  /** The last state saved (or read at open). */
  get(): HardState {
    return this.current;
  }

  /** The highest term in which this node may have cast a vote (see the file comment). */
  votedTerm(): number {
    return this.voted;
  }

  /** Durably replaces the state; resolves once the rename and directory are fsynced. */
  save(state: HardState, options?: AtomicWriteOptions): Promise<void> {
    invariant(
      state.term >= this.current.term,
      () => `hard state term went backwards: ${this.current.term} -> ${state.term}`,
    );
    if (state.vote !== '') this.votedQueued = Math.max(this.votedQueued, state.term);
    const voted = this.votedQueued;
    const bytes = encodeHardState(state, voted);
    const run = this.queue.then(async () => {
      await writeFileAtomic(this.path, bytes, { fs: this.fs, ...options });
      this.current = state;
      this.voted = voted;
    });
    this.queue = run.catch(() => {});
    return run;
  }
}
