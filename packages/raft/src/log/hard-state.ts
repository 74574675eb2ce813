/**
 * The Raft hard state (term, vote, commit) in one small checksummed file,
 * replaced atomically on every save (see atomic-file.ts).
 *
 * Term and vote must be durable before a vote or append acknowledgement is
 * sent. The commit index is volatile in Raft (it is re-learned from the
 * leader), so a driver may choose to save only when term or vote change
 * (`mustPersist`), keeping one fsync per Ready on the hot path.
 */
import { mkdirSync } from 'node:fs';
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

export const HARD_STATE_FILE = 'hard-state';
export const EMPTY_HARD_STATE: HardState = { term: 0, vote: '', commit: 0 };

export function encodeHardState(state: HardState): Buffer {
  const { term, vote, commit } = state;
  return encodeRecord(Buffer.from(JSON.stringify({ term, vote, commit }), 'utf8'));
}

export function decodeHardState(path: string, body: Buffer): HardState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new CorruptionError(path, 12, 'hard state is not valid JSON');
  }
  const { term, vote, commit } = (parsed ?? {}) as Record<string, unknown>;
  if (!Number.isSafeInteger(term) || typeof vote !== 'string' || !Number.isSafeInteger(commit)) {
    throw new CorruptionError(path, 12, `hard state has wrong fields: ${body.toString('utf8')}`);
  }
  return { term: term as number, vote, commit: commit as number };
}

/** True when `next` changes what must be durable before answering (term or vote). */
export function mustPersist(prev: HardState, next: HardState): boolean {
  return prev.term !== next.term || prev.vote !== next.vote;
}

export class HardStateFile {
  private current: HardState;
  /** Saves run one at a time so they reach the disk in call order. */
  private queue: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    initial: HardState,
  ) {
    this.current = initial;
  }

  /** Opens (creating `dir` if needed) `<dir>/hard-state`; a missing file is the empty state. */
  static open(dir: string): HardStateFile {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, HARD_STATE_FILE);
    removeStaleTempFiles(dir, path);
    const body = readRecordFile(path);
    return new HardStateFile(path, body === undefined ? EMPTY_HARD_STATE : decodeHardState(path, body));
  }

  /** The last state saved (or read at open). */
  get(): HardState {
    return this.current;
  }

  /** Durably replaces the state; resolves once the rename and directory are fsynced. */
  save(state: HardState, options?: AtomicWriteOptions): Promise<void> {
    invariant(
      state.term >= this.current.term,
      () => `hard state term went backwards: ${this.current.term} -> ${state.term}`,
    );
    const bytes = encodeHardState(state);
    const run = this.queue.then(async () => {
      await writeFileAtomic(this.path, bytes, options);
      this.current = state;
    });
    this.queue = run.catch(() => {});
    return run;
  }
}
