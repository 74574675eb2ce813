import type { Entry, HardState, LogReader, NodeId } from '../types.js';
import type { SimRaftCore } from './sim-core.js';

/** The names the simulator reports; the injected-bug tests assert on them. */
export type InvariantName =
  | 'election-safety'
  | 'leader-append-only'
  | 'log-matching'
  | 'committed-prefix'
  | 'leader-completeness'
  | 'term-monotonic'
  | 'commit-monotonic'
  | 'applied-le-committed-le-last'
  | 'one-vote-per-term'
  | 'follower-truncates-only-on-conflict'
  | 'acknowledged-entries-survive'
  | 'applied-prefix'
  | 'read-index-linearizable'
  | 'liveness'
  | `core:${string}`
  | 'exception';

/**
 * The general safety properties (Raft's Figure 3: election safety, leader
 * append-only, log matching, leader completeness, state machine safety), Figure 2's
 * persistence rule (no acknowledged write lost), linearizable reads and liveness (a
 * live majority has a leader within a bound, while faults come and go and after they
 * heal): an injected bug must break one of these, not only a check written for its
 * mechanism.
 */
export const GENERAL_INVARIANTS: readonly InvariantName[] = [
  'election-safety',
  'leader-append-only',
  'log-matching',
  'leader-completeness',
  'committed-prefix',
  'applied-prefix',
  // Figure 2: persistent state is on stable storage before a node answers. An entry a
  // node acknowledged survives its crash (unless a leader of another term replaced it):
  // every quorum argument of the safety proof counts on it, whatever lost it.
  'acknowledged-entries-survive',
  // A read served by read-index reflects every entry committed before it began.
  'read-index-linearizable',
  'liveness',
];

export class InvariantViolation extends Error {
  readonly invariant: InvariantName;
  readonly values: Readonly<Record<string, unknown>>;
  constructor(invariant: InvariantName, values: Readonly<Record<string, unknown>>) {
    super(`${invariant} ${JSON.stringify(values)}`);
    this.invariant = invariant;
    this.values = values;
  }
}

const keys = new WeakMap<Entry, string>();
const decoder = new TextDecoder();

/** Identity of an entry's content: term, type and data. */
export function entryKey(e: Entry): string {
  let key = keys.get(e);
  if (key === undefined) {
    key = `${e.term}/${e.type}/${decoder.decode(e.data)}`;
    keys.set(e, key);
  }
  return key;
}

/** What the checker remembers about one node across its incarnations. */
export interface NodeWatch {
  /** Highest term / commit seen in the current incarnation. */
  term: number;
  commit: number;
  /** Committed entries up to here were compared with the canonical history. */
  canonChecked: number;
  /** Last persisted hard state (never decreases, across restarts too). */
  persisted: HardState;
  /** The node's current incarnation (restarts so far). */
  incarnation: number;
  /** While leader: the term, its last entry, and how far its log was checked against the canonical history. */
  leader?: { term: number; lastIndex: number; lastTerm: number; canonChecked: number };
}

/**
 * The Raft safety invariants, checked after every simulator step against one
 * canonical committed history (index -> entry key).
 */
export class Checker {
  /** index -> entry key, and the term of the node that first saw it committed (>= the term it was committed in). */
  private readonly canon = new Map<number, { key: string; term: number }>();
  canonMax = 0;
  /** term -> the leader elected in it, as node#incarnation: a node that crashed and leads the same term again was elected twice in it. */
  private readonly leaders = new Map<number, string>();
  /** Incarnations per node (restarts), across servers added again under one id. */
  private readonly incarnations = new Map<NodeId, number>();
  private readonly votes = new Map<string, NodeId>();
  private readonly votesBy = new Map<NodeId, Map<number, NodeId>>();
  /** (index, term) -> entry key and previous term: log matching by induction. */
  private readonly entriesSeen = new Map<string, string>();
  /** Per node: its log is durable up to (index, term), as its append acknowledgements promised. */
  private readonly acks = new Map<NodeId, { index: number; term: number }>();

  /**
   * With `generalOnly`, only GENERAL_INVARIANTS stop a run: the checks aimed at one
   * mechanism (votes survive, truncation only on a conflict, ...) are counted in
   * `suppressed`, so an injected bug's run goes on until (or unless) it breaks a
   * general property.
   */
  constructor(private readonly generalOnly = false) {}
  readonly suppressed = new Map<InvariantName, number>();

  private check(ok: boolean, name: InvariantName, values: () => Record<string, unknown>): void {
    if (ok) return;
    if (this.generalOnly && !GENERAL_INVARIANTS.includes(name)) {
      this.suppressed.set(name, (this.suppressed.get(name) ?? 0) + 1);
      return;
    }
    throw new InvariantViolation(name, values());
  }

  newWatch(persisted: HardState): NodeWatch {
    return { term: persisted.term, commit: persisted.commit, canonChecked: 0, persisted, incarnation: 0 };
  }

  /**
   * A node restarted: in-memory watermarks restart from what it persisted. Every vote
   * it has sent must have survived: a node that forgot a vote can vote twice in a term.
   */
  restarted(node: NodeId, w: NodeWatch): void {
    const incarnation = (this.incarnations.get(node) ?? 0) + 1;
    this.incarnations.set(node, incarnation);
    w.incarnation = incarnation;
    const hs = w.persisted;
    for (const [term, candidate] of this.votesBy.get(node) ?? []) {
      this.check(hs.term > term || (hs.term === term && hs.vote === candidate), 'one-vote-per-term', () => ({
        voter: node,
        term,
        votedFor: candidate,
        persistedAfterCrash: hs,
        problem: 'a vote that was sent did not survive the crash',
      }));
    }
    w.term = w.persisted.term;
    w.commit = w.persisted.commit;
    w.canonChecked = Math.min(w.canonChecked, w.persisted.commit);
    w.leader = undefined;
  }

  /**
   * `node` is a new server (a member added again under a removed one's id, on an empty
   * disk): the votes and acknowledgements of the removed one do not bind it.
   */
  newServer(node: NodeId): void {
    for (const term of this.votesBy.get(node)?.keys() ?? []) this.votes.delete(`${node}@${term}`);
    this.votesBy.delete(node);
    this.acks.delete(node);
  }

  /** Records or compares one committed entry against the canonical history. */
  committed(node: NodeId, e: Entry, how: 'commit' | 'apply' | 'snapshot', nodeTerm: number): void {
    const key = entryKey(e);
    const known = this.canon.get(e.index)?.key;
    if (known === undefined) {
      this.canon.set(e.index, { key, term: nodeTerm });
      if (e.index > this.canonMax) this.canonMax = e.index;
      return;
    }
    this.check(known === key, how === 'commit' ? 'committed-prefix' : 'applied-prefix', () => ({
      node,
      index: e.index,
      canonical: known,
      found: key,
      how,
    }));
  }

  canonical(index: number): string | undefined {
    return this.canon.get(index)?.key;
  }

  /** Log matching (§5.3): equal (index, term) implies equal entries and equal predecessors. */
  handedOut(node: NodeId, entries: readonly Entry[], prevTerm: number): void {
    let prev = prevTerm;
    for (const e of entries) {
      const id = `${e.index}:${e.term}`;
      const value = `${entryKey(e)}|${prev}`;
      const known = this.entriesSeen.get(id);
      if (known === undefined) this.entriesSeen.set(id, value);
      else
        this.check(known === value, 'log-matching', () => ({
          node,
          index: e.index,
          term: e.term,
          known,
          found: value,
        }));
      prev = e.term;
    }
  }

  /** A granted vote actually left the node: at most one candidate per (voter, term). */
  voteSent(voter: NodeId, term: number, candidate: NodeId): void {
    const id = `${voter}@${term}`;
    const known = this.votes.get(id);
    if (known === undefined) {
      this.votes.set(id, candidate);
      let mine = this.votesBy.get(voter);
      if (!mine) this.votesBy.set(voter, (mine = new Map()));
      mine.set(term, candidate);
      // Only the newest few matter for the restart check (older terms are below the persisted term).
      for (const t of mine.keys()) if (mine.size > 4 && t < term) mine.delete(t);
    } else
      this.check(known === candidate, 'one-vote-per-term', () => ({
        voter,
        term,
        first: known,
        second: candidate,
      }));
  }

  /**
   * A node acknowledged (append-response) its log up to `index`, where its store holds
   * `term`: those entries are durable and survive any crash, unless replaced later by
   * entries of another term (see rewriting).
   */
  acked(node: NodeId, index: number, term: number | undefined): void {
    if (term === undefined) return; // an acknowledgement made stale by a conflicting append
    const known = this.acks.get(node);
    if (!known || index > known.index) this.acks.set(node, { index, term });
  }

  /** `node`'s store writes `entries`: acknowledged entries up to the first one whose term differs stay promised. */
  rewriting(node: NodeId, store: LogReader, entries: readonly Entry[]): void {
    const promise = this.acks.get(node);
    const first = entries[0];
    if (!promise || !first || first.index > promise.index) return;
    const conflict = entries.find((e) => store.term(e.index) !== e.term && e.index <= store.lastIndex());
    const from = conflict?.index ?? Math.min(store.lastIndex() + 1, first.index + entries.length);
    if (from > promise.index) return;
    const term = store.term(from - 1);
    if (term === undefined) this.acks.delete(node);
    else this.acks.set(node, { index: from - 1, term });
  }

  /** A snapshot replaced `node`'s whole log (committed history): its earlier acknowledgements no longer bind it. */
  replaced(node: NodeId): void {
    this.acks.delete(node);
  }

  /** After a crash, the durable log still holds every entry the node acknowledged (or a snapshot covers it). */
  durableAfterCrash(node: NodeId, log: LogReader): void {
    const promise = this.acks.get(node);
    if (!promise || promise.index < log.firstIndex() - 1) return;
    this.check(
      promise.index <= log.lastIndex() && log.term(promise.index) === promise.term,
      'acknowledged-entries-survive',
      () => ({
        node,
        acknowledgedUpTo: promise.index,
        acknowledgedTerm: promise.term,
        durableLastIndex: log.lastIndex(),
        durableTermThere: log.term(promise.index),
      }),
    );
  }

  /**
   * A follower rewrites persisted entries only from a real conflict (§5.3): entries that
   * match the leader's are never dropped because of a stale, duplicated or reordered append.
   */
  truncation(node: NodeId, disk: LogReader, entries: readonly Entry[]): void {
    const last = entries.at(-1);
    if (!last || last.index >= disk.lastIndex()) return;
    const conflict = entries.find((e) => e.index <= disk.lastIndex() && disk.term(e.index) !== e.term);
    this.check(conflict !== undefined, 'follower-truncates-only-on-conflict', () => ({
      node,
      writingFrom: entries[0]!.index,
      writingTo: last.index,
      droppedUpTo: disk.lastIndex(),
    }));
  }

  /**
   * A restart read `hs` from the node's hard-state file: what is durable, checked as a save
   * (term and commit never go back, one vote per term), then the basis of `restarted`.
   */
  recovered(node: NodeId, w: NodeWatch, hs: HardState): void {
    this.persisted(node, w, hs);
  }

  persisted(node: NodeId, w: NodeWatch, hs: HardState): void {
    const old = w.persisted;
    this.check(hs.term >= old.term, 'term-monotonic', () => ({
      node,
      persistedTerm: old.term,
      newTerm: hs.term,
    }));
    this.check(hs.commit >= old.commit, 'commit-monotonic', () => ({
      node,
      persistedCommit: old.commit,
      newCommit: hs.commit,
    }));
    if (hs.term === old.term && old.vote !== '') {
      this.check(hs.vote === old.vote, 'one-vote-per-term', () => ({
        node,
        term: hs.term,
        first: old.vote,
        second: hs.vote,
      }));
    }
    w.persisted = hs;
  }

  /** The per-step checks of one running node. */
  node(core: SimRaftCore, w: NodeWatch, smApplied: number): void {
    const st = core.status();
    const id = st.id;
    this.check(st.term >= w.term, 'term-monotonic', () => ({ node: id, before: w.term, now: st.term }));
    this.check(st.commit >= w.commit, 'commit-monotonic', () => ({
      node: id,
      before: w.commit,
      now: st.commit,
    }));
    w.term = st.term;
    w.commit = st.commit;
    this.check(smApplied <= st.commit, 'applied-le-committed-le-last', () => ({
      node: id,
      smApplied,
      commit: st.commit,
    }));
    this.check(st.applied <= st.commit && st.commit <= st.lastIndex, 'applied-le-committed-le-last', () => ({
      node: id,
      applied: st.applied,
      commit: st.commit,
      lastIndex: st.lastIndex,
    }));

    const first = core.firstIndex();
    for (let i = Math.max(w.canonChecked + 1, first); i <= st.commit; i++)
      this.committed(id, core.entryAt(i), 'commit', st.term);
    w.canonChecked = Math.max(w.canonChecked, st.commit);

    if (st.role !== 'leader') {
      w.leader = undefined;
      return;
    }
    const leader = `${id}#${w.incarnation}`;
    const holder = this.leaders.get(st.term);
    // Election safety (§5.2): one leader elected per term. The same node leading a term again
    // after a crash was elected a second time in it (a candidate's vote, its own included,
    // is durable before it counts, so a restart never campaigns in a term it voted in).
    this.check(holder === undefined || holder === leader, 'election-safety', () => ({
      term: st.term,
      first: holder,
      second: leader,
    }));
    this.leaders.set(st.term, leader);

    const lastIndex = st.lastIndex;
    const lastTerm = core.termAt(lastIndex) ?? -1;
    let watch = w.leader;
    if (watch && watch.term === st.term) {
      const was = watch;
      const termNow = was.lastIndex >= first - 1 ? core.termAt(was.lastIndex) : was.lastTerm;
      this.check(lastIndex >= was.lastIndex && termNow === was.lastTerm, 'leader-append-only', () => ({
        node: id,
        term: st.term,
        lastIndexBefore: was.lastIndex,
        lastTermBefore: was.lastTerm,
        lastIndexNow: lastIndex,
        termNowAtOldLast: termNow,
      }));
    } else {
      watch = { term: st.term, lastIndex, lastTerm, canonChecked: Math.max(0, first - 1) };
    }
    // Leader completeness (§5.4): a leader holds every entry committed in its term or before.
    for (let i = Math.max(watch.canonChecked + 1, first); i <= this.canonMax; i++) {
      const c = this.canon.get(i);
      if (c === undefined || c.term > st.term) continue;
      const known = c.key;
      const found = i <= lastIndex ? entryKey(core.entryAt(i)) : 'missing';
      this.check(found === known, 'leader-completeness', () => ({
        leader: id,
        term: st.term,
        index: i,
        committed: known,
        found,
      }));
    }
    w.leader = {
      term: st.term,
      lastIndex,
      lastTerm,
      canonChecked: Math.max(watch.canonChecked, this.canonMax),
    };
  }
}
