import type { Entry } from '../types.js';
import { NodeClosedError, ProposalDroppedError } from './errors.js';

interface PendingProposal {
  readonly index: number;
  readonly term: number;
  /** Ready rounds taken before this proposal (see dropOverwritten). */
  readonly seq: number;
  /** Resolve once the entry is durable in this (the leader's) log, not once applied. */
  readonly leaderLogOnly: boolean;
  deadline: number;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

interface PendingRead {
  index: number;
  deadline: number;
  resolve(index: number): void;
  reject(error: Error): void;
}

/** The driver's proposals waiting for their entry's fate, and reads waiting for their index to apply. */
export class PendingWork {
  private readonly proposals = new Map<number, PendingProposal>();
  private readonly reads = new Map<string, PendingRead>();
  dropped = 0;

  /** Reads waiting for a confirmation or for their index to apply. */
  get readCount(): number {
    return this.reads.size;
  }

  get proposalCount(): number {
    return this.proposals.size;
  }

  track(
    at: { index: number; term: number },
    seq: number,
    deadline: number,
    leaderLogOnly: boolean,
  ): Promise<unknown> {
    const stale = this.proposals.get(at.index);
    if (stale) {
      // The core reused the index: the older entry there is gone.
      this.proposals.delete(at.index);
      this.drop(
        stale,
        'overwritten',
        true,
        `entry ${at.index} of term ${stale.term} was replaced in term ${at.term}`,
      );
    }
    return new Promise((resolve, reject) => {
      this.proposals.set(at.index, {
        index: at.index,
        term: at.term,
        seq,
        leaderLogOnly,
        deadline,
        resolve,
        reject,
      });
    });
  }

  /**
   * Entries handed out from `entries[0].index` replace whatever the log held
   * there: a pending proposal at or after that index (proposed before this
   * Ready was taken) whose entry is not among them with its term was dropped.
   */
  dropOverwritten(entries: readonly Entry[], readySeq: number): void {
    if (this.proposals.size === 0) return;
    const first = (entries[0] as Entry).index;
    for (const p of [...this.proposals.values()]) {
      if (p.index < first || p.seq >= readySeq) continue;
      const e = entries[p.index - first];
      if (e && e.term === p.term) continue;
      this.proposals.delete(p.index);
      this.drop(p, 'overwritten', true, `entry ${p.index} of term ${p.term} was overwritten by a new leader`);
    }
  }

  /** Proposals made with durability 'leader' are done once their entry is in the durable log. */
  resolveDurable(entries: readonly Entry[]): void {
    if (this.proposals.size === 0) return;
    for (const e of entries) {
      const p = this.proposals.get(e.index);
      if (p?.leaderLogOnly && p.term === e.term) {
        this.proposals.delete(e.index);
        p.resolve(undefined);
      }
    }
  }

  /** Entry `e` was applied with `result`. */
  applied(e: Entry, result: unknown): void {
    const p = this.proposals.get(e.index);
    if (!p) return;
    this.proposals.delete(e.index);
    if (p.term === e.term) p.resolve(result);
    else
      this.drop(
        p,
        'overwritten',
        true,
        `entry ${e.index} was replaced by term ${e.term} (proposed in ${p.term})`,
      );
  }

  /** A snapshot at `index` replaced the log: the fate of proposals up to it is unknown here. */
  dropUpTo(index: number): void {
    for (const p of [...this.proposals.values()]) {
      if (p.index > index) continue;
      this.proposals.delete(p.index);
      this.drop(
        p,
        'snapshot',
        false,
        `a snapshot at ${index} replaced the log before entry ${p.index} was seen applied`,
      );
    }
  }

  /** Leadership was lost: our proposals may still commit under the next leader; wait a little, not forever. */
  shortenDeadlines(graceDeadline: number): void {
    for (const p of this.proposals.values()) p.deadline = Math.min(p.deadline, graceDeadline);
  }

  addRead(key: string, deadline: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.reads.set(key, { index: -1, deadline, resolve, reject });
    });
  }

  readConfirmed(key: string, index: number): void {
    const read = this.reads.get(key);
    if (read) read.index = index;
  }

  resolveReads(applied: number): void {
    for (const [key, r] of this.reads) {
      if (r.index >= 0 && r.index <= applied) {
        this.reads.delete(key);
        r.resolve(r.index);
      }
    }
  }

  /** Reads waiting for a confirmation from a leader that is gone will not get it. */
  rejectUnconfirmedReads(error: () => Error): void {
    for (const [key, r] of this.reads) {
      if (r.index >= 0) continue;
      this.reads.delete(key);
      r.reject(error());
    }
  }

  expire(nowMs: number, readTimeout: () => Error): void {
    for (const p of this.proposals.values()) {
      if (p.deadline > nowMs) continue;
      this.proposals.delete(p.index);
      this.drop(p, 'timeout', false, `no outcome for entry ${p.index} within the proposal timeout`);
    }
    for (const [key, r] of this.reads) {
      if (r.deadline > nowMs) continue;
      this.reads.delete(key);
      r.reject(readTimeout());
    }
  }

  failAll(reason: 'closed' | 'leadership-lost', why: string): void {
    for (const p of this.proposals.values()) this.drop(p, reason, false, why);
    this.proposals.clear();
    for (const r of this.reads.values()) r.reject(new NodeClosedError(why));
    this.reads.clear();
  }

  private drop(
    p: PendingProposal,
    reason: ProposalDroppedError['reason'],
    definite: boolean,
    why: string,
  ): void {
    this.dropped++;
    p.reject(new ProposalDroppedError(reason, definite, p.index, p.term, `proposal dropped: ${why}`));
  }
}
