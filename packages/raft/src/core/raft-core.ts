/**
 * The Raft algorithm as a pure state machine (etcd/raft's shape): `tick`,
 * `step`, `propose`, and `ready`/`advance`, with no clock, file or socket.
 * One file over ~400 lines on purpose: elections, replication, commit,
 * membership, transfer and ReadIndex all read and write the same role state
 * (term, vote, progress, configuration), and the rules between them (check
 * quorum, leader lease, one configuration change at a time) are easiest to
 * check against the dissertation when the whole step function is in one
 * place. The log, progress tracking, configuration changes and read-only
 * bookkeeping live in their own files.
 */

import { invariant, LimitError } from '@fermata/base';
import type {
  ConfChange,
  ConfState,
  Entry,
  HardState,
  LogReader,
  Message,
  NodeId,
  ReadState,
  Ready,
  Role,
  SnapshotMeta,
  SoftState,
} from '../types.js';
import { message } from '../types.js';
import {
  applyConfChange,
  decodeConfChange,
  encodeConfChange,
  isEmptyConf,
  validateConfChange,
} from './conf-change.js';
import { ConfChangeInProgressError, NotLeaderError } from './errors.js';
import { Progress, type ProgressState } from './progress.js';
import { RaftLog } from './raft-log.js';
import { decodeReadSeq, encodeReadSeq, ReadOnlyQueue } from './read-only.js';

/** Default byte limit of entry data in one append message. */
export const DEFAULT_MAX_MSG_BYTES = 1024 * 1024;
/** Default number of append messages in flight to one follower (replicate state). */
export const DEFAULT_MAX_INFLIGHT = 256;
/** Default limit of proposed-but-uncommitted entry bytes on a leader. */
export const DEFAULT_MAX_UNCOMMITTED_BYTES = 64 * 1024 * 1024;
/** Byte limit of committed entry data handed out in one Ready. */
export const MAX_APPLY_BYTES_PER_READY = 64 * 1024 * 1024;
/**
 * The highest term a node takes from a message. Beyond it a term could not be
 * incremented within the integers the wire carries (below 2^53). The driver
 * bounds terms much tighter (peer-admission.ts); this is the core's own floor.
 */
export const MAX_TERM = Number.MAX_SAFE_INTEGER - 1;
/** Marks the vote requests of a leadership transfer: voters then ignore their leader lease. */
export const TRANSFER_CONTEXT: Uint8Array = new TextEncoder().encode('raft:transfer');

export interface RaftCoreOptions {
  id: NodeId;
  /** The stable log. After advance(ready), it holds everything ready.entries handed out. */
  log: LogReader;
  /** As persisted (term 0, vote '', commit 0 for a fresh node). */
  hardState: HardState;
  /** The state machine's applied index at start; committed entries after it are handed out again. */
  applied: number;
  /**
   * Voters of a brand-new cluster: used only when the log is empty and the snapshot's conf
   * is empty. The core then writes the configuration into the log as committed term-1
   * conf-change entries (add-learner + promote per voter, voters sorted), so that every
   * bootstrapping node produces the same log and a node added later learns the initial
   * members from the log.
   */
  bootstrapVoters: readonly NodeId[];
  electionTicks: number;
  heartbeatTicks: number;
  /** Seeded source in [0,1): the ONLY randomness. */
  random: () => number;
  /**
   * The node joined a running cluster (RaftDriverOptions.join): until it records a join
   * floor (hardState.joinFloor) from the first leader message it takes, and until its
   * commit index reaches that floor, it never campaigns.
   */
  join?: boolean;
  preVote?: boolean;
  checkQuorum?: boolean;
  maxMsgBytes?: number;
  maxInflight?: number;
  maxUncommittedBytes?: number;
}

export interface FollowerProgress {
  match: number;
  next: number;
  state: ProgressState;
  recentActive: boolean;
  /** Heard from in this check-quorum round or the one before: false means silent for a whole election timeout. */
  reachable: boolean;
}

export interface RaftStatus {
  id: NodeId;
  term: number;
  role: Role;
  leader: NodeId;
  commit: number;
  applied: number;
  lastIndex: number;
  conf: ConfState;
  /** Leader only: per follower (and learner) progress. */
  progress: ReadonlyMap<NodeId, FollowerProgress>;
  /** Leader only: the voter leadership is being handed to; '' when no transfer is under way. */
  transferee: NodeId;
}

type InternalRole = 'follower' | 'pre-candidate' | 'candidate' | 'leader';
type CampaignKind = 'pre-election' | 'election' | 'transfer';

const EMPTY = new Uint8Array(0);

/**
 * Raft as a pure state machine (etcd/raft shape): no I/O, no timers, no clock and no
 * randomness but `options.random`.
 *
 * Driver contract (see `Ready` in types.ts):
 * - Call `tick()` every tick, `step()` for every message received, and whenever
 *   `hasReady()` take `ready()`, then: install `snapshot`; persist `entries` and
 *   `hardState` with one fsync; only then send `persistedMessages` (votes and append
 *   acknowledgements promise durable state: a vote is never answered before it is
 *   durable); `messages` may be sent at once; apply `committedEntries`; `advance(ready)`.
 * - One Ready at a time: `hasReady()` is false and `ready()` throws until `advance()`.
 *   `step`, `tick` and `propose` may be called while a Ready is being processed.
 * - The leader counts its own log towards a quorum only up to what `advance` confirmed
 *   durable.
 *
 * Membership changes take effect when their entry is COMMITTED (as this core learns the
 * commit index), not when appended; one change at a time keeps old and new majorities
 * overlapping. A leader whose removal commits broadcasts the commit, hands over and steps
 * down after one election timeout. A (pre-)vote answer, granted or refused, carries its
 * sender's commit index (commitHint), a vote request the candidate's (requestCommitHint),
 * and a vote round asks the learners as well as the voters (voteRecipients), so a voter
 * that missed the commit of a change learns it from any member it hears from.
 */
export class RaftCore {
  readonly id: NodeId;
  /** Protected so that the simulator's checker (a subclass) can read the log; nothing else touches it. */
  protected readonly log: RaftLog;
  private readonly electionTicks: number;
  private readonly heartbeatTicks: number;
  private readonly random: () => number;
  private readonly preVote: boolean;
  private readonly checkQuorum: boolean;
  private readonly maxMsgBytes: number;
  private readonly maxInflight: number;
  private readonly maxUncommittedBytes: number;

  private term: number;
  private vote: NodeId;
  private lead: NodeId = '';
  private role: InternalRole = 'follower';
  private conf: ConfState;
  /** Committed configurations by index (ascending), for snapshotMetaAt. */
  private confHistory: { index: number; conf: ConfState }[];
  /** Indexes of conf-change entries in the log above the commit index. */
  private pendingConfIndexes: number[] = [];

  private electionElapsed = 0;
  private heartbeatElapsed = 0;
  private randomizedElectionTimeout = 0;
  private votes = new Map<NodeId, boolean>();
  private progress = new Map<NodeId, Progress>();
  private leadTransferee: NodeId = '';
  private readonly reads = new ReadOnlyQueue();
  private uncommitted: { index: number; bytes: number }[] = [];
  private uncommittedBytes = 0;
  private needsBroadcast = false;
  /** A leader whose own removal committed: it only announces the commit and hands leadership over. */
  private removedLeader = false;
  /**
   * The highest configuration entry this node knows committed durably: the driver
   * saves the commit index once it passes the configuration in effect, before the
   * Ready's persisted messages leave (docs/design.md, persistence contract).
   */
  private durableConfIndex = 0;
  /** confIndex() when the outstanding Ready was taken: durable once advance() confirms its hard state. */
  private readyConfIndex = 0;
  /**
   * Join floor (a node that joined a running cluster on an empty disk): the commit index
   * of the first leader message it took; undefined while it has taken none (a joiner) or
   * for a node that bootstrapped. Why: catching up, its commit index passes through every
   * configuration of the log, and under an id added again after its removal (operations,
   * "Replacing a lost node") it is a voter of the old ones: in the bootstrap's first entries
   * the only one. Campaigning on such a configuration it could win alone, a second leader.
   * The entry adding it is committed before any leader sends to it, so at the floor its
   * configuration is one that added this incarnation.
   */
  private joinFloor: number | undefined;
  private readonly joining: boolean;
  /**
   * Leader: the highest configuration entry a majority of its configuration is known
   * to hold committed durably (their responses' `commit`): a removal is done, for the
   * caller, once this covers it (see announced()).
   */
  private announcedConfIndex = 0;
  /** A candidate whose own vote wins (the only voter): it leads once that vote is durable (advance). */
  private winsWhenVoteDurable = false;

  private msgs: Message[] = [];
  private persistedMsgs: Message[] = [];
  private readStates: ReadState[] = [];
  private prevHardState: HardState;
  private prevSoftState: SoftState = { leader: '', role: 'follower' };
  private readyOutstanding = false;

  constructor(options: RaftCoreOptions) {
    invariant(
      options.electionTicks > options.heartbeatTicks && options.heartbeatTicks > 0,
      'electionTicks > heartbeatTicks > 0',
      () => ({
        electionTicks: options.electionTicks,
        heartbeatTicks: options.heartbeatTicks,
      }),
    );
    this.id = options.id;
    this.electionTicks = options.electionTicks;
    this.heartbeatTicks = options.heartbeatTicks;
    this.random = options.random;
    this.preVote = options.preVote ?? true;
    this.checkQuorum = options.checkQuorum ?? true;
    this.maxMsgBytes = options.maxMsgBytes ?? DEFAULT_MAX_MSG_BYTES;
    this.maxInflight = options.maxInflight ?? DEFAULT_MAX_INFLIGHT;
    this.maxUncommittedBytes = options.maxUncommittedBytes ?? DEFAULT_MAX_UNCOMMITTED_BYTES;
    const snapshot = options.log.snapshotMeta();
    invariant(
      options.applied >= snapshot.index,
      "the state machine is not behind the log's snapshot",
      () => ({
        applied: options.applied,
        snapshotIndex: snapshot.index,
      }),
    );
    this.log = new RaftLog(options.log, options.hardState.commit, options.applied);
    this.term = options.hardState.term;
    this.vote = options.hardState.vote;
    this.joinFloor = options.hardState.joinFloor;
    this.joining = options.join === true;
    this.prevHardState = options.hardState;
    this.conf = snapshot.conf;
    this.confHistory = [{ index: snapshot.index, conf: snapshot.conf }];
    if (this.bootstrapUnfinished(options.bootstrapVoters, snapshot)) {
      this.bootstrap(options.bootstrapVoters);
    } else {
      this.loadConfFromLog();
    }
    this.catchUpTermWithLog();
    this.resetTimers();
    // What a restart derives the configuration from is durable (saved commit, applied
    // index, later conf-change entries in the log); a bootstrap's entries are not yet.
    if (this.log.unstableEntries().length === 0) this.durableConfIndex = this.confIndex();
  }

  // ---------------------------------------------------------------- inputs

  tick(): void {
    if (this.role === 'leader') this.tickLeader();
    else this.tickElection();
  }

  step(m: Message): void {
    // A term this core could not increment (the wire carries integers below 2^53) is never taken.
    if (m.term > MAX_TERM) return;
    // What a vote request or a refusal says committed is a fact at any term: a refusal from a
    // voter at a lower term (a removed node that no longer takes terms, say) still teaches it.
    // Granted answers carry it too (grantCommitHint).
    if ((m.type === 'vote' || m.type === 'pre-vote') && this.role !== 'leader') {
      this.adoptCommitFact(m.commit, m.hintTerm);
    } else if (m.type === 'vote-response' || m.type === 'pre-vote-response') {
      this.adoptCommitFact(m.commit, m.logTerm);
    }
    if (m.term > this.term) {
      if (m.type === 'vote' || m.type === 'pre-vote') {
        const force = sameBytes(m.context, TRANSFER_CONTEXT);
        const inLease = this.checkQuorum && this.lead !== '' && this.electionElapsed < this.electionTicks;
        if (!force && inLease) return; // a live leader exists: do not let a partitioned node disrupt it
      }
      if (m.type === 'pre-vote') {
        // A pre-vote never changes our term.
      } else if (m.type === 'pre-vote-response' && !m.reject) {
        // Granted pre-votes carry the term we would campaign in.
      } else {
        const fromLeader = m.type === 'append' || m.type === 'heartbeat' || m.type === 'snapshot';
        this.becomeFollower(m.term, fromLeader ? m.from : '');
      }
    } else if (m.term < this.term) {
      if ((this.checkQuorum || this.preVote) && (m.type === 'append' || m.type === 'heartbeat')) {
        // Tell a stale leader about our term so that it steps down.
        this.send({ type: 'append-response', to: m.from });
      } else if (m.type === 'pre-vote') {
        this.send({ type: 'pre-vote-response', to: m.from, reject: true, ...this.commitHint(m.index) });
      }
      return;
    }

    if (m.type === 'vote' || m.type === 'pre-vote') {
      this.handleVote(m);
      return;
    }
    switch (this.role) {
      case 'leader':
        this.stepLeader(m);
        return;
      case 'candidate':
      case 'pre-candidate':
        this.stepCandidate(m);
        return;
      case 'follower':
        this.stepFollower(m);
        return;
    }
  }

  propose(data: Uint8Array): { index: number; term: number } {
    this.assertCanPropose();
    if (this.uncommittedBytes > 0 && this.uncommittedBytes + data.length > this.maxUncommittedBytes) {
      throw new LimitError(
        'maxUncommittedBytes',
        this.maxUncommittedBytes,
        this.uncommittedBytes + data.length,
      );
    }
    return this.appendEntry('normal', data);
  }

  proposeConfChange(change: ConfChange): { index: number; term: number } {
    this.assertCanPropose();
    if (this.log.term(this.log.committed) !== this.term) {
      throw new ConfChangeInProgressError('the leader has not yet committed an entry of its term');
    }
    const pending = this.pendingConfIndexes.at(-1);
    if (pending !== undefined) {
      throw new ConfChangeInProgressError(`conf change at index ${pending} is not committed yet`);
    }
    validateConfChange(this.conf, change);
    return this.appendEntry('conf-change', encodeConfChange(change));
  }

  /** Leader only (NotLeaderError otherwise). A target that is this node or not a voter is ignored. */
  transferLeadership(to: NodeId): void {
    if (this.role !== 'leader') throw new NotLeaderError(this.lead);
    if (to === this.id || !this.conf.voters.includes(to)) return;
    if (this.leadTransferee === to) return;
    this.leadTransferee = to;
    this.electionElapsed = 0; // the transfer must finish within one election timeout
    const pr = this.progress.get(to);
    if (pr && pr.match === this.log.lastIndex()) this.sendTimeoutNow(to);
    else this.sendAppend(to);
  }

  /**
   * Requests a linearizable read point. On a follower it is forwarded to the leader
   * (NotLeaderError if none is known); a lost request yields nothing, so callers time out.
   */
  readIndex(context: Uint8Array): void {
    if (this.role === 'leader' && this.removedLeader) {
      throw new NotLeaderError('', 'this leader was removed from the configuration');
    }
    if (this.role === 'leader') {
      this.handleReadRequest(this.id, context);
      return;
    }
    if (this.lead === '') throw new NotLeaderError('');
    this.send({ type: 'read-index', to: this.lead, context });
  }

  reportSnapshot(to: NodeId, ok: boolean): void {
    const pr = this.role === 'leader' ? this.progress.get(to) : undefined;
    if (pr?.state !== 'snapshot') return;
    if (!ok) pr.pendingSnapshot = 0; // retry from the match point: a new snapshot will be sent
    pr.becomeProbe();
    // Wait for the next heartbeat response (or append response) before probing again.
    pr.probeSent = true;
  }

  reportUnreachable(to: NodeId): void {
    const pr = this.role === 'leader' ? this.progress.get(to) : undefined;
    if (pr?.state === 'replicate') pr.becomeProbe();
  }

  // ---------------------------------------------------------------- Ready

  hasReady(): boolean {
    if (this.readyOutstanding) return false;
    return (
      this.needsBroadcast ||
      this.msgs.length > 0 ||
      this.persistedMsgs.length > 0 ||
      this.readStates.length > 0 ||
      this.log.unstableEntries().length > 0 ||
      this.log.snapshotToInstall() !== undefined ||
      this.log.hasEntriesToApply() ||
      !sameHardState(this.hardState(), this.prevHardState) ||
      !sameSoftState(this.softState(), this.prevSoftState)
    );
  }

  ready(): Ready {
    invariant(!this.readyOutstanding, 'one Ready at a time: advance() the previous one first', () => ({
      id: this.id,
    }));
    if (this.needsBroadcast) this.bcastAppend();
    const hardState = this.hardState();
    const softState = this.softState();
    const snapshot = this.log.snapshotToInstall();
    const committedEntries = this.log.nextEntriesToApply(MAX_APPLY_BYTES_PER_READY);
    const rd: Ready = {
      ...(sameSoftState(softState, this.prevSoftState) ? {} : { softState }),
      ...(sameHardState(hardState, this.prevHardState) ? {} : { hardState }),
      ...(snapshot ? { snapshot } : {}),
      entries: this.log.unstableEntries(),
      messages: this.msgs,
      persistedMessages: this.persistedMsgs,
      committedEntries,
      readStates: this.readStates,
    };
    this.prevHardState = hardState;
    this.readyConfIndex = this.confIndex();
    this.prevSoftState = softState;
    this.msgs = [];
    this.persistedMsgs = [];
    this.readStates = [];
    const lastCommitted = committedEntries.at(-1);
    if (lastCommitted) this.log.applying = lastCommitted.index;
    this.readyOutstanding = true;
    return rd;
  }

  advance(rd: Ready): void {
    invariant(this.readyOutstanding, 'advance() follows ready()', () => ({ id: this.id }));
    this.readyOutstanding = false;
    if (rd.snapshot) {
      this.log.stableSnapshotTo(rd.snapshot.index);
      if (rd.snapshot.index > this.log.applied) this.log.appliedTo(rd.snapshot.index);
    }
    const last = rd.entries.at(-1);
    if (last) this.markStable(rd.entries);
    const lastApplied = rd.committedEntries.at(-1);
    if (lastApplied) this.log.appliedTo(lastApplied.index);
    if (rd.hardState && this.readyConfIndex > this.durableConfIndex) {
      // The driver saved the commit index of the configuration in effect (asserted there).
      this.durableConfIndex = this.readyConfIndex;
      if (this.role === 'leader') this.maybeAnnounce();
    }
    // A commit is announced by the next append or heartbeat, never by a message of its own.
    if (this.role === 'leader' && last) this.maybeCommit();
    if (this.winsWhenVoteDurable && rd.hardState?.term === this.term && rd.hardState.vote === this.id) {
      this.winsWhenVoteDurable = false;
      // Counted again under the configuration of now; one that gained voters waits for a new election.
      if (this.role === 'candidate' && this.recordVote(this.id, true) === 'won') this.becomeLeader();
    }
  }

  // ---------------------------------------------------------------- queries

  /**
   * Index of the entry (or snapshot) that set the configuration in effect.
   * The driver makes the commit index durable whenever it passes this (see
   * docs/design.md, persistence contract).
   */
  confIndex(): number {
    return this.confHistory.at(-1)?.index ?? 0;
  }

  /**
   * Whether a majority of the configuration in effect is known to hold, durably,
   * that the configuration entry at `index` (or a later one) committed: a leader
   * learns it from its followers' responses; it stays true when the leader steps
   * down. Until then a removal is not done for the caller: a remaining voter that
   * missed the commit still counts the removed node and may need its vote.
   */
  announced(index: number): boolean {
    return this.announcedConfIndex >= index;
  }

  /** Term and membership as of `index` (<= commit): what the driver writes next to a snapshot it takes. */
  snapshotMetaAt(index: number): SnapshotMeta {
    invariant(index <= this.log.committed, 'snapshot index <= committed', () => ({
      index,
      committed: this.log.committed,
    }));
    // While an accepted snapshot awaits installation, older indexes are still in the stable log.
    const term = this.log.term(index) ?? this.log.stable.term(index);
    invariant(term !== undefined, 'snapshot index is still in the log', () => ({
      index,
      firstIndex: this.log.firstIndex(),
    }));
    let conf: ConfState | undefined;
    for (const h of this.confHistory) if (h.index <= index) conf = h.conf;
    invariant(conf !== undefined, 'configuration known at snapshot index', () => ({
      index,
      oldest: this.confHistory[0]?.index,
    }));
    return { index, term, conf };
  }

  status(): RaftStatus {
    const progress = new Map<NodeId, FollowerProgress>();
    if (this.role === 'leader') {
      for (const [id, pr] of this.progress) {
        if (id === this.id) continue;
        progress.set(id, {
          match: pr.match,
          next: pr.next,
          state: pr.state,
          recentActive: pr.recentActive,
          reachable: pr.recentActive || pr.activeBefore,
        });
      }
    }
    return {
      id: this.id,
      term: this.term,
      role: this.reportedRole(),
      leader: this.lead,
      commit: this.log.committed,
      applied: this.log.applied,
      lastIndex: this.log.lastIndex(),
      conf: this.conf,
      progress,
      transferee: this.role === 'leader' ? this.leadTransferee : '',
    };
  }

  /** The current term, without the rest of `status()` (peer admission reads it for every batch). */
  currentTerm(): number {
    return this.term;
  }

  /** The configuration in effect, without the rest of `status()`. */
  currentConf(): ConfState {
    return this.conf;
  }

  /** Whom this node voted for in its current term ('' for nobody): peer admission reads it. */
  currentVote(): NodeId {
    return this.votedFor();
  }

  /** Nodes added by conf-change entries above the commit index (Raft already counts them as peers). */
  pendingMembers(): NodeId[] {
    if (this.pendingConfIndexes.length === 0) return [];
    const added: NodeId[] = [];
    for (const at of this.pendingConfIndexes) {
      const change = decodeConfChange(this.log.entryAt(at).data);
      if (change.type === 'add-learner') added.push(change.node);
    }
    return added;
  }

  // ---------------------------------------------------------------- test hooks
  // The simulator's injected-bug tests override these (see sim/injected-bugs.ts).

  /** The vote of the current term ('' if none), for the simulator's checker. */
  protected votedFor(): NodeId {
    return this.vote;
  }
  /** §5.4.2: a leader commits by counting replicas only for entries of its own term. */
  protected canCommitByCounting(index: number): boolean {
    return this.log.term(index) === this.term;
  }

  /** The highest index known committed because a later conf-change entry follows it (see loadConfFromLog). */
  protected committedByLaterConfChange(confIndexes: readonly number[]): number {
    return confIndexes.length >= 2 ? confIndexes[confIndexes.length - 2]! : 0;
  }

  /** What the leader counts as its own copy towards a quorum: only what advance() confirmed durable. */
  protected selfDurableIndex(): number {
    return this.log.stableLastIndex();
  }

  /** advance(): the handed-out entries still in the log with their terms are durable. */
  protected markStable(entries: readonly Entry[]): void {
    this.log.stableEntries(entries);
  }

  /** Messages that promise durable state wait until the Ready's persistence is done. */
  protected sendsAfterPersist(m: Message): boolean {
    return m.type === 'append-response' || m.type === 'vote' || m.type === 'vote-response';
  }

  /** Figure 2, AppendEntries rule 3 and 4: truncate only from the first real conflict. */
  protected appendFromLeader(m: Message): void {
    const conflict = this.log.findConflict(m.entries);
    if (conflict === 0) return;
    this.appendToLog(m.entries.slice(conflict - (m.index + 1)));
  }

  protected appendToLog(entries: readonly Entry[]): void {
    const first = entries[0];
    if (!first) return;
    this.log.append(entries);
    this.pendingConfIndexes = this.pendingConfIndexes.filter((i) => i < first.index);
    for (const e of entries) if (e.type === 'conf-change') this.pendingConfIndexes.push(e.index);
  }

  // ---------------------------------------------------------------- roles

  private becomeFollower(term: number, lead: NodeId): void {
    this.reset(term);
    this.lead = lead;
    this.role = 'follower';
  }

  private becomePreCandidate(): void {
    invariant(this.role !== 'leader', 'a leader does not pre-campaign', () => ({ id: this.id }));
    // No term change: a pre-vote round must not disturb anyone.
    this.votes.clear();
    this.lead = '';
    this.role = 'pre-candidate';
  }

  private becomeCandidate(): void {
    invariant(this.role !== 'leader', 'a leader does not campaign', () => ({ id: this.id }));
    invariant(this.term < MAX_TERM, 'a candidate term stays within MAX_TERM', () => ({ term: this.term }));
    this.reset(this.term + 1);
    this.vote = this.id;
    this.role = 'candidate';
  }

  private becomeLeader(): void {
    invariant(this.role === 'candidate', 'only a candidate becomes leader', () => ({ role: this.role }));
    this.reset(this.term);
    this.role = 'leader';
    this.lead = this.id;
    const next = this.log.lastIndex() + 1;
    for (const id of members(this.conf)) {
      const pr = new Progress(next);
      if (id === this.id) {
        pr.match = this.selfDurableIndex();
        pr.recentActive = true;
      }
      this.progress.set(id, pr);
    }
    // §5.4.2 / §8: a no-op of our term lets us commit everything before it.
    this.appendEntry('normal', EMPTY);
    this.bcastAppend();
    // A configuration learned committed before leading (from a vote answer's commit hint,
    // say) is announced as soon as a majority is known to hold it: at once for a single voter.
    this.maybeAnnounce();
  }

  private reset(term: number): void {
    if (term !== this.term) {
      invariant(term > this.term, 'term never decreases', () => ({
        id: this.id,
        term: this.term,
        newTerm: term,
      }));
      this.term = term;
      this.vote = '';
    }
    this.lead = '';
    this.resetTimers();
    this.votes.clear();
    this.progress.clear();
    this.leadTransferee = '';
    this.removedLeader = false;
    this.winsWhenVoteDurable = false;
    this.reads.clear();
    this.uncommitted = [];
    this.uncommittedBytes = 0;
    this.needsBroadcast = false;
  }

  private resetTimers(): void {
    this.electionElapsed = 0;
    this.heartbeatElapsed = 0;
    this.randomizedElectionTimeout = this.electionTicks + Math.floor(this.random() * this.electionTicks);
  }

  private promotable(): boolean {
    return this.conf.voters.includes(this.id);
  }

  private reportedRole(): Role {
    if (this.role === 'follower' && this.conf.learners.includes(this.id)) return 'learner';
    return this.role;
  }

  // ---------------------------------------------------------------- ticks and elections

  private tickElection(): void {
    this.electionElapsed++;
    if (this.promotable() && this.pastJoinFloor() && this.electionElapsed >= this.randomizedElectionTimeout) {
      this.electionElapsed = 0;
      this.campaign(this.preVote ? 'pre-election' : 'election');
    }
  }

  private tickLeader(): void {
    this.heartbeatElapsed++;
    this.electionElapsed++;
    if (this.electionElapsed >= this.electionTicks) {
      this.electionElapsed = 0;
      if (this.removedLeader) {
        // §4.2.2: a leader removed from the configuration steps down once C_new is
        // committed. A majority of C_new has not confirmed the commit within an election
        // timeout (a follower of a version that does not report it, say): step down
        // anyway. The removal is then not reported done (announced()); while this node
        // runs, a voter that missed the commit learns it from its vote refusal
        // (commitHint).
        this.stepDownAfterRemoval();
        return;
      } else if (this.checkQuorum) {
        if (!this.quorumActive()) {
          // §6.2 check-quorum: a leader cut off from a majority steps down.
          this.becomeFollower(this.term, '');
          return;
        }
        for (const [id, pr] of this.progress) {
          pr.activeBefore = pr.recentActive;
          pr.recentActive = id === this.id;
        }
      }
      this.leadTransferee = ''; // a transfer that did not finish within an election timeout is abandoned
    }
    if (this.heartbeatElapsed >= this.heartbeatTicks) {
      this.heartbeatElapsed = 0;
      this.bcastHeartbeat();
    }
  }

  private quorumActive(): boolean {
    let active = 0;
    for (const v of this.conf.voters) if (v === this.id || this.progress.get(v)?.recentActive) active++;
    return active >= quorumOf(this.conf.voters.length);
  }

  private campaign(kind: CampaignKind): void {
    if (!this.promotable() || !this.pastJoinFloor()) return;
    let voteTerm: number;
    let type: 'pre-vote' | 'vote';
    if (kind === 'pre-election') {
      this.becomePreCandidate();
      voteTerm = this.term + 1;
      type = 'pre-vote';
    } else {
      this.becomeCandidate();
      voteTerm = this.term;
      type = 'vote';
    }
    if (this.recordVote(this.id, true) === 'won') {
      if (kind === 'pre-election') this.campaign('election');
      else if (this.ownVoteCountsBeforeDurable()) this.becomeLeader();
      else this.winsWhenVoteDurable = true;
      return;
    }
    const lastIndex = this.log.lastIndex();
    const lastTerm = this.log.lastTerm();
    for (const v of this.voteRecipients()) {
      if (v === this.id) continue;
      this.send({
        type,
        to: v,
        term: voteTerm,
        index: lastIndex,
        logTerm: lastTerm,
        ...this.requestCommitHint(),
        ...(kind === 'transfer' ? { context: TRANSFER_CONTEXT } : {}),
      });
    }
  }

  /**
   * Whom a vote round asks: the voters, whose votes count, and the learners, whose answers
   * carry the highest index they know committed (commitHint). Why the learners: a learner
   * can be the only running node that heard a configuration change commit. A leader of
   * {A, B} that removed B and crashed before its hard state with that commit was durable
   * restarts counting {A, B}; only the learner heard the announcement, B is down, and A
   * would wait for B's vote for good. With one change at a time every voter of the next
   * configuration is a voter or a learner of this one, so asking both reaches every voter
   * of the configuration that a change the candidate holds but missed the commit of puts
   * in effect. A learner's vote never counts (recordVote counts the voters).
   */
  protected voteRecipients(): readonly NodeId[] {
    return members(this.conf);
  }

  /**
   * A vote counts once it is durable, the candidate's own too: a single voter that led
   * before its term and vote were written could, after a crash, lead that term again and
   * write other entries at indexes of that term it already wrote (and sent to learners).
   * The others' votes arrive only after our vote requests, which wait for our vote.
   */
  protected ownVoteCountsBeforeDurable(): boolean {
    return false;
  }

  private recordVote(from: NodeId, granted: boolean): 'won' | 'lost' | 'pending' {
    if (!this.votes.has(from)) this.votes.set(from, granted);
    let yes = 0;
    let no = 0;
    for (const v of this.conf.voters) {
      const got = this.votes.get(v);
      if (got === true) yes++;
      else if (got === false) no++;
    }
    const quorum = quorumOf(this.conf.voters.length);
    if (yes >= quorum) return 'won';
    if (no > this.conf.voters.length - quorum) return 'lost';
    return 'pending';
  }

  /**
   * Figure 2 RequestVote receiver (and §9.6 pre-vote): at most one vote per term, only for
   * an up-to-date log, and only from a node its own configuration names (a voter, or a
   * learner whose promotion has not reached it yet). A node it does not name (a removed
   * member, a node started empty to join) has no vote to give, even to a candidate that
   * still counts it. Why: a member removed with its own acknowledgement and started again
   * empty under its id would otherwise vote, with an empty log, for a voter that missed
   * entries committed by that very member, and that voter would lead without them.
   */
  private handleVote(m: Message): void {
    const pre = m.type === 'pre-vote';
    const type = pre ? 'pre-vote-response' : 'vote-response';
    const named = this.conf.voters.includes(this.id) || this.conf.learners.includes(this.id);
    const canVote =
      named &&
      (this.vote === m.from || (this.vote === '' && this.lead === '') || (pre && m.term > this.term));
    if (canVote && this.log.isUpToDate(m.index, m.logTerm)) {
      this.send({ type, to: m.from, term: m.term, ...this.grantCommitHint(m.index) });
      if (!pre) {
        this.electionElapsed = 0;
        this.vote = m.from;
      }
    } else {
      this.send({ type, to: m.from, reject: true, ...this.commitHint(m.index) });
    }
  }

  /**
   * What a vote answer tells the candidate about commitment: the highest index this
   * node knows committed that the candidate's log can hold, with its term. A voter
   * that missed the commit of a membership change may otherwise wait forever for the
   * vote of a node whose longer log makes it refuse (a removed member, say).
   */
  private commitHint(candidateLastIndex: number): Pick<Message, 'commit' | 'logTerm'> | undefined {
    const index = Math.min(this.log.committed, candidateLastIndex);
    const term = index > 0 ? this.log.term(index) : undefined;
    return term === undefined ? undefined : { commit: index, logTerm: term };
  }

  /**
   * A granted (pre-)vote carries the same hint as a refusal: a learner asked in a vote
   * round (voteRecipients) or a voter the candidate still counts as a learner grants
   * nothing that counts, and what it knows committed may be all the candidate lacks.
   */
  protected grantCommitHint(candidateLastIndex: number): Pick<Message, 'commit' | 'logTerm'> | undefined {
    return this.commitHint(candidateLastIndex);
  }

  /**
   * What a vote request tells its voters about commitment: the highest index the
   * candidate knows committed, with its term (`commit`, `hintTerm`). The voters of a
   * membership change whose commit only a candidate they cannot elect knows (its disk too
   * slow to make its vote durable in time, say) would otherwise keep counting the
   * configuration before it, and a majority of the new one, up and connected, would
   * elect no one.
   */
  protected requestCommitHint(): Pick<Message, 'commit' | 'hintTerm'> | undefined {
    const index = this.log.committed;
    const term = index > 0 ? this.log.term(index) : undefined;
    return term === undefined ? undefined : { commit: index, hintTerm: term };
  }

  /**
   * A commit hint (a refusal's `commit`/`logTerm`, a vote request's `commit`/`hintTerm`)
   * is a fact: the entry at `index` with `term` is committed. When our log holds that
   * entry, log matching gives us the whole committed prefix, so we commit it (and apply
   * any configuration change it holds) at once.
   */
  private adoptCommitFact(index: number, term: number): void {
    if (index <= this.log.committed || term === 0) return;
    if (!this.log.matchTerm(index, term)) return;
    this.commitTo(index);
  }

  // ---------------------------------------------------------------- per-role message handling

  private stepLeader(m: Message): void {
    switch (m.type) {
      case 'append-response':
        this.handleAppendResponse(m);
        return;
      case 'heartbeat-response': {
        const pr = this.progress.get(m.from);
        if (!pr) return;
        pr.recentActive = true;
        this.recordReportedCommit(pr, m.commit);
        if (this.role !== 'leader') return; // a removed leader that just stepped down
        pr.probeSent = false;
        pr.freeFirstIfFull(this.maxInflight);
        if (pr.match < this.log.lastIndex()) this.sendAppend(m.from);
        const seq = decodeReadSeq(m.context);
        if (seq > 0) {
          this.reads.ack(m.from, seq);
          this.releaseReads();
        }
        return;
      }
      case 'read-index':
        this.handleReadRequest(m.from, m.context ?? EMPTY);
        return;
      default:
        return;
    }
  }

  private stepCandidate(m: Message): void {
    if (m.type === 'append' || m.type === 'snapshot') this.noteJoinFloor(m);
    switch (m.type) {
      case 'append':
        this.becomeFollower(m.term, m.from);
        this.handleAppend(m);
        return;
      case 'heartbeat':
        this.becomeFollower(m.term, m.from);
        this.handleHeartbeat(m);
        return;
      case 'snapshot':
        this.becomeFollower(m.term, m.from);
        this.handleSnapshot(m);
        return;
      case 'pre-vote-response':
      case 'vote-response': {
        if ((m.type === 'pre-vote-response') !== (this.role === 'pre-candidate')) return;
        const result = this.recordVote(m.from, !m.reject);
        if (result === 'won') {
          if (this.role === 'pre-candidate') this.campaign('election');
          else this.becomeLeader();
        } else if (result === 'lost') {
          this.becomeFollower(this.term, '');
        }
        return;
      }
      default:
        return;
    }
  }

  private stepFollower(m: Message): void {
    const leaderOnly = m.type === 'append' || m.type === 'heartbeat' || m.type === 'snapshot';
    // One leader per term (§5.2): another sender of a leader's message at this term is forged.
    if (leaderOnly && this.lead !== '' && m.from !== this.lead) return;
    if (leaderOnly) this.noteJoinFloor(m);
    switch (m.type) {
      case 'append':
        this.electionElapsed = 0;
        this.lead = m.from;
        this.handleAppend(m);
        return;
      case 'heartbeat':
        this.electionElapsed = 0;
        this.lead = m.from;
        this.handleHeartbeat(m);
        return;
      case 'snapshot':
        this.electionElapsed = 0;
        this.lead = m.from;
        this.handleSnapshot(m);
        return;
      case 'timeout-now':
        // §3.10 leadership transfer: campaign at once, skipping pre-vote and leases.
        this.campaign('transfer');
        return;
      case 'read-index-response':
        this.readStates.push({ index: m.index, context: m.context ?? EMPTY });
        return;
      default:
        return;
    }
  }

  /** Figure 2 AppendEntries receiver. */
  private handleAppend(m: Message): void {
    if (m.index < this.log.committed) {
      this.send({ type: 'append-response', to: m.from, index: this.log.committed });
      return;
    }
    if (this.log.matchTerm(m.index, m.logTerm)) {
      const lastNew = m.index + m.entries.length;
      this.appendFromLeader(m);
      this.commitTo(Math.min(m.commit, lastNew));
      this.send({ type: 'append-response', to: m.from, index: lastNew });
      return;
    }
    // Consistency check failed: hint the largest index whose term is <= the leader's prevLogTerm.
    const hint = this.log.findConflictByTerm(Math.min(m.index, this.log.lastIndex()), m.logTerm);
    this.send({
      type: 'append-response',
      to: m.from,
      index: m.index,
      reject: true,
      rejectHint: hint,
      hintTerm: this.log.term(hint) ?? 0,
    });
  }

  private handleHeartbeat(m: Message): void {
    this.commitTo(m.commit);
    this.send({ type: 'heartbeat-response', to: m.from, ...(m.context ? { context: m.context } : {}) });
  }

  private handleSnapshot(m: Message): void {
    const meta = m.snapshot;
    if (!meta) return;
    if (meta.index <= this.log.committed) {
      this.send({ type: 'append-response', to: m.from, index: this.log.committed });
      return;
    }
    if (this.log.matchTerm(meta.index, meta.term)) {
      // We already have the snapshot's last entry: just fast-forward the commit index.
      this.commitTo(meta.index);
      this.send({ type: 'append-response', to: m.from, index: this.log.committed });
      return;
    }
    this.log.restore(meta);
    this.conf = meta.conf;
    this.pushConfHistory(meta.index, meta.conf);
    this.pendingConfIndexes = [];
    this.send({ type: 'append-response', to: m.from, index: meta.index });
  }

  private handleAppendResponse(m: Message): void {
    const pr = this.progress.get(m.from);
    if (!pr) return;
    pr.recentActive = true;
    this.recordReportedCommit(pr, m.commit);
    if (this.role !== 'leader') return; // a removed leader that just stepped down
    if (m.reject) {
      const hint = m.hintTerm > 0 ? this.log.findConflictByTerm(m.rejectHint, m.hintTerm) : m.rejectHint;
      if (pr.maybeDecrTo(m.index, hint)) {
        if (pr.state === 'replicate') pr.becomeProbe();
        this.sendAppend(m.from);
      }
      return;
    }
    const wasPaused = pr.isPaused(this.maxInflight);
    if (!pr.maybeUpdate(m.index)) return;
    if (pr.state === 'probe') {
      pr.becomeReplicate();
    } else if (pr.state === 'snapshot') {
      if (pr.match >= pr.pendingSnapshot) {
        pr.becomeProbe();
        pr.becomeReplicate();
      }
    } else {
      pr.freeTo(m.index);
    }
    // The new commit index rides the next append or heartbeat, as in advance().
    this.maybeCommit();
    if (wasPaused) this.sendAppend(m.from);
    // Pipeline: keep sending while the window has room and there is something to send.
    while (this.role === 'leader' && this.progress.has(m.from) && this.sendAppend(m.from, false)) {}
    if (this.role === 'leader' && m.from === this.leadTransferee && pr.match === this.log.lastIndex()) {
      this.sendTimeoutNow(m.from);
    }
  }

  private recordReportedCommit(pr: Progress, commit: number): void {
    if (commit <= pr.commit) return;
    pr.commit = commit;
    this.maybeAnnounce();
  }

  // ---------------------------------------------------------------- replication (leader)

  private assertCanPropose(): void {
    if (this.role !== 'leader') throw new NotLeaderError(this.lead);
    if (this.removedLeader) throw new NotLeaderError('', 'this leader was removed from the configuration');
    if (this.leadTransferee !== '') {
      throw new NotLeaderError(
        this.leadTransferee,
        `leadership is being transferred to ${this.leadTransferee}`,
      );
    }
  }

  private appendEntry(type: Entry['type'], data: Uint8Array): { index: number; term: number } {
    const entry: Entry = { term: this.term, index: this.log.lastIndex() + 1, type, data };
    this.appendToLog([entry]);
    this.uncommitted.push({ index: entry.index, bytes: data.length });
    this.uncommittedBytes += data.length;
    this.needsBroadcast = true;
    return { index: entry.index, term: entry.term };
  }

  private bcastAppend(): void {
    this.needsBroadcast = false;
    for (const id of this.progress.keys()) if (id !== this.id) this.sendAppend(id);
  }

  private bcastHeartbeat(): void {
    const seq = this.reads.latestSeq();
    for (const [id, pr] of this.progress) {
      if (id === this.id) continue;
      this.send({
        type: 'heartbeat',
        to: id,
        commit: Math.min(pr.match, this.log.committed),
        ...(seq > 0 ? { context: encodeReadSeq(seq) } : {}),
      });
    }
  }

  /** Sends the next append (or a snapshot) to `to`; false if paused or, unless `sendIfEmpty`, nothing to send. */
  private sendAppend(to: NodeId, sendIfEmpty = true): boolean {
    const pr = this.progress.get(to);
    if (!pr || pr.isPaused(this.maxInflight)) return false;
    const prevIndex = pr.next - 1;
    const prevTerm = this.log.term(prevIndex);
    if (prevTerm === undefined) return this.sendSnapshot(to, pr);
    const last = this.log.lastIndex();
    const entries = pr.next <= last ? this.log.entries(pr.next, last + 1, this.maxMsgBytes) : [];
    if (entries.length === 0 && !sendIfEmpty) return false;
    this.send({
      type: 'append',
      to,
      index: prevIndex,
      logTerm: prevTerm,
      entries,
      commit: this.log.committed,
    });
    pr.sentEntries(prevIndex + entries.length, entries.length);
    return true;
  }

  private sendSnapshot(to: NodeId, pr: Progress): boolean {
    if (!pr.recentActive) return false;
    const meta = this.log.stable.snapshotMeta();
    invariant(meta.index >= pr.next - 1, 'the snapshot covers the entries the follower needs', () => ({
      to,
      snapshotIndex: meta.index,
      next: pr.next,
    }));
    this.send({ type: 'snapshot', to, index: meta.index, logTerm: meta.term, snapshot: meta });
    pr.becomeSnapshot(meta.index);
    return true;
  }

  private sendTimeoutNow(to: NodeId): void {
    this.send({ type: 'timeout-now', to });
  }

  /** Commits the highest index a quorum of voters holds, if allowed (§5.4.2). */
  private maybeCommit(): boolean {
    const self = this.progress.get(this.id);
    if (self) self.match = Math.max(self.match, this.selfDurableIndex());
    const matches = this.conf.voters.map((v) => this.progress.get(v)?.match ?? 0).sort((a, b) => b - a);
    const quorum = quorumOf(this.conf.voters.length);
    const candidate = matches[quorum - 1] ?? 0;
    if (candidate <= this.log.committed || !this.canCommitByCounting(candidate)) return false;
    this.commitTo(candidate);
    return true;
  }

  // ---------------------------------------------------------------- commit and membership

  private commitTo(index: number): void {
    if (index <= this.log.committed) return;
    // Read the configuration entries first: a storage error then leaves nothing half-updated.
    const changes: { at: number; change: ConfChange }[] = [];
    for (const at of this.pendingConfIndexes) {
      if (at > index) break;
      changes.push({ at, change: decodeConfChange(this.log.entryAt(at).data) });
    }
    const wasCommittedInTerm = this.log.term(this.log.committed) === this.term;
    if (!this.log.commitTo(index)) return;
    while (this.uncommitted.length > 0 && this.uncommitted[0]!.index <= index) {
      this.uncommittedBytes -= this.uncommitted.shift()!.bytes;
    }
    this.pendingConfIndexes.splice(0, changes.length);
    for (const { at, change } of changes) {
      this.conf = applyConfChange(this.conf, change);
      this.pushConfHistory(at, this.conf);
    }
    if (changes.length > 0) this.onConfCommitted();
    if (this.role === 'leader' && !wasCommittedInTerm && this.log.term(this.log.committed) === this.term) {
      for (const r of this.reads.takeWaiting()) this.handleReadRequest(r.from, r.context);
    }
  }

  private onConfCommitted(): void {
    if (this.role !== 'leader') {
      if (this.role !== 'follower' && !this.promotable()) this.becomeFollower(this.term, '');
      return;
    }
    const next = this.log.lastIndex() + 1;
    const all = members(this.conf);
    for (const id of all) if (!this.progress.has(id)) this.progress.set(id, new Progress(next));
    for (const id of [...this.progress.keys()]) if (!all.includes(id)) this.progress.delete(id);
    if (this.leadTransferee !== '' && !this.conf.voters.includes(this.leadTransferee))
      this.leadTransferee = '';
    if (!this.promotable()) {
      // Our removal is committed. We keep leading, refusing proposals and reads, until a
      // majority of the new configuration is known to hold the commit durably (their
      // responses say so; heartbeats and appends carry it), or for one election timeout
      // at most (tickLeader); then we hand leadership to the most caught-up voter (§3.10)
      // and step down (thesis §4.2.2). The remaining voters send nothing to a removed
      // node, so it cannot wait for a higher term.
      this.removedLeader = true;
      this.electionElapsed = 0;
      this.bcastAppend();
      this.maybeAnnounce();
      return;
    }
    this.needsBroadcast = true;
    this.maybeAnnounce();
    // The quorum changed: entries a majority of the new voters holds may commit now (etcd does the same).
    this.maybeCommit();
    this.releaseReads();
  }

  /**
   * Leader: records how far a majority of the configuration is known to hold the
   * configuration's commit durably; a removed leader whose removal is known so hands
   * over and steps down.
   */
  private maybeAnnounce(): void {
    const at = this.confIndex();
    if (this.announcedConfIndex >= at) return;
    let known = 0;
    for (const v of this.conf.voters) {
      const commit = v === this.id ? this.durableConfIndex : (this.progress.get(v)?.commit ?? 0);
      if (commit >= at) known++;
    }
    if (known < quorumOf(this.conf.voters.length)) return;
    this.announcedConfIndex = at;
    if (this.removedLeader) this.stepDownAfterRemoval();
  }

  private stepDownAfterRemoval(): void {
    this.handOverAfterRemoval();
    this.becomeFollower(this.term, '');
  }

  private handOverAfterRemoval(): void {
    let best: NodeId | undefined;
    let bestMatch = -1;
    for (const v of this.conf.voters) {
      const match = this.progress.get(v)?.match ?? -1;
      if (match > bestMatch) {
        best = v;
        bestMatch = match;
      }
    }
    if (!best) return;
    this.leadTransferee = best;
    if (bestMatch === this.log.lastIndex()) this.sendTimeoutNow(best);
    else this.sendAppend(best);
  }

  private pushConfHistory(index: number, conf: ConfState): void {
    this.confHistory.push({ index, conf });
    // Keep what snapshotMetaAt can still be asked for: the newest entry at or below the compaction point and all later ones.
    const floor = Math.min(this.log.firstIndex(), this.log.stable.firstIndex()) - 1;
    let drop = 0;
    while (drop + 1 < this.confHistory.length && this.confHistory[drop + 1]!.index <= floor) drop++;
    if (drop > 0) this.confHistory = this.confHistory.slice(drop);
  }

  /**
   * A fresh log, or one holding only part of the bootstrap entries (a crash
   * tore their first write): the bootstrap is written (again) from where the
   * log ends. Term 1 belongs to the bootstrap; no leader is elected in it.
   */
  private bootstrapUnfinished(voters: readonly NodeId[], snapshot: SnapshotMeta): boolean {
    if (voters.length === 0 || snapshot.index > 0 || !isEmptyConf(snapshot.conf)) return false;
    const last = this.log.lastIndex();
    if (last >= 2 * new Set(voters).size) return false;
    for (let i = 1; i <= last; i++) if (this.log.term(i) !== 1) return false;
    return true;
  }

  private bootstrap(voters: readonly NodeId[]): void {
    const sorted = [...new Set(voters)].sort();
    const entries: Entry[] = [];
    for (const node of sorted) {
      for (const type of ['add-learner', 'promote'] as const) {
        entries.push({
          term: 1,
          index: entries.length + 1,
          type: 'conf-change',
          data: encodeConfChange({ type, node }),
        });
      }
    }
    if (this.term < 1) {
      this.term = 1;
      this.vote = '';
    }
    const written = this.log.lastIndex();
    for (let i = 1; i <= written; i++) {
      invariant(
        this.log.entryAt(i).type === 'conf-change',
        'a partly written bootstrap holds bootstrap entries',
        () => ({ index: i }),
      );
      this.pendingConfIndexes.push(i);
    }
    this.appendToLog(entries.slice(written));
    this.commitTo(entries.length);
  }

  /**
   * A saved term below the log's last term is raised to it, with no vote. The driver writes
   * the hard state after the log append, so a crash between them keeps entries of a term the
   * hard state never reached (the bootstrap's term-1 entries over a saved term 0; entries a
   * leader of a newer term sent). Campaigning in that term, the node could lead it while
   * holding entries of it it did not write, which would pass for entries of its leadership
   * (ReadIndex trusts a commit index whose entry has the leader's term). No vote is
   * forgotten: a vote leaves only once durable, so none was sent above the saved term; and
   * no candidate in that term gets ours, as a node holding an entry of it has that term.
   */
  private catchUpTermWithLog(): void {
    const lastTerm = this.log.lastTerm();
    if (this.term >= lastTerm) return;
    this.term = lastTerm;
    this.vote = '';
  }

  /**
   * Rebuilds the configuration from the log at start-up. A conf-change entry
   * followed by another one in the log is committed: a leader proposes a
   * change only once every earlier one in its log has committed, and log
   * matching gives us its prefix. So the commit index a restart uses covers
   * every configuration change but the last in the log, even when the
   * durable commit index lags.
   */
  private loadConfFromLog(): void {
    const last = this.log.lastIndex();
    const confEntries: Entry[] = [];
    let at = this.log.firstIndex();
    while (at <= last) {
      const batch = this.log.entries(at, last + 1, this.maxMsgBytes);
      for (const e of batch) if (e.type === 'conf-change') confEntries.push(e);
      at += batch.length;
    }
    const inferred = this.committedByLaterConfChange(confEntries.map((e) => e.index));
    if (inferred > this.log.committed) this.log.commitTo(inferred);
    for (const e of confEntries) {
      if (e.index <= this.log.committed) {
        this.conf = applyConfChange(this.conf, decodeConfChange(e.data));
        this.confHistory.push({ index: e.index, conf: this.conf });
      } else {
        this.pendingConfIndexes.push(e.index);
      }
    }
  }

  // ---------------------------------------------------------------- ReadIndex (§6.4)

  private handleReadRequest(from: NodeId, context: Uint8Array): void {
    if (this.log.term(this.log.committed) !== this.term) {
      // Our commit index may be stale until an entry of our term commits.
      this.reads.wait(from, context);
      return;
    }
    if (this.conf.voters.length === 1 && this.promotable()) {
      this.answerRead(from, this.log.committed, context);
      return;
    }
    this.reads.add(this.id, this.log.committed, from, context);
    this.bcastHeartbeat();
  }

  private releaseReads(): void {
    const voters = this.conf.voters;
    for (const r of this.reads.takeConfirmed(voters, quorumOf(voters.length))) {
      this.answerRead(r.from, r.index, r.context);
    }
  }

  private answerRead(from: NodeId, index: number, context: Uint8Array): void {
    if (from === this.id) this.readStates.push({ index, context });
    else this.send({ type: 'read-index-response', to: from, index, context });
  }

  // ---------------------------------------------------------------- plumbing

  private hardState(): HardState {
    const hs = { term: this.term, vote: this.vote, commit: this.log.committed };
    return this.joinFloor === undefined ? hs : { ...hs, joinFloor: this.joinFloor };
  }

  /** Whether the join floor lets this node campaign (see `joinFloor`). */
  private pastJoinFloor(): boolean {
    if (this.joinFloor === undefined) return !this.joining;
    return this.log.committed >= this.joinFloor;
  }

  /** A joiner's first leader message: its commit index (or snapshot) is the join floor. */
  private noteJoinFloor(m: Message): void {
    if (!this.joining || this.joinFloor !== undefined) return;
    if (m.type === 'append') this.joinFloor = m.commit;
    else if (m.type === 'snapshot' && m.snapshot) this.joinFloor = m.snapshot.index;
  }

  private softState(): SoftState {
    return { leader: this.lead, role: this.reportedRole() };
  }

  private send(fields: Partial<Message> & Pick<Message, 'type' | 'to'>): void {
    const responds = fields.type === 'append-response' || fields.type === 'heartbeat-response';
    const m = message({
      from: this.id,
      term: this.term,
      ...(responds ? { commit: this.durableConfIndex } : {}),
      ...fields,
    });
    if (this.sendsAfterPersist(m)) this.persistedMsgs.push(m);
    else this.msgs.push(m);
  }
}

function quorumOf(voters: number): number {
  return Math.floor(voters / 2) + 1;
}

function members(conf: ConfState): NodeId[] {
  return [...conf.voters, ...conf.learners];
}

function sameHardState(a: HardState, b: HardState): boolean {
  return a.term === b.term && a.vote === b.vote && a.commit === b.commit && a.joinFloor === b.joinFloor;
}

function sameSoftState(a: SoftState, b: SoftState): boolean {
  return a.leader === b.leader && a.role === b.role;
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
