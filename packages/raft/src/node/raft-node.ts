/**
 * The node driver: the Ready loop around `RaftCore`, through the ports of
 * `ports.ts` (log, hard state, snapshots, transport, clock). Over ~400 lines
 * because the Ready loop, the apply pipeline, snapshots and membership calls
 * share the ordering rules of the persistence contract (docs/design.md);
 * options, restart, and waiting proposals and reads are in node-options.ts,
 * recovery.ts and pending.ts.
 */
import { EventEmitter } from 'node:events';
import { type Clock, InvariantError, invariant } from '@fermata/base';
import { decodeConfChange } from '../core/conf-change.js';
import { ConfChangeInProgressError, InvalidConfChangeError, NotLeaderError } from '../core/errors.js';
import type { RaftCore } from '../core/raft-core.js';
import { isNoSpace, isRetryable, LimitError, StorageError } from '../log/errors.js';
import { mustPersist } from '../log/hard-state.js';
import { DEFAULT_MAX_ENTRY_BYTES } from '../log/log-store.js';
import type { Admission, SenderIdentity } from '../transport/admission.js';
import { type Logger, stderrLogger } from '../transport/logger.js';
import type { TransportHandler } from '../transport/peer-transport.js';
import type {
  ConfChange,
  Entry,
  HardState,
  Message,
  NodeId,
  Ready,
  Role,
  SnapshotMeta,
  StateMachine,
} from '../types.js';
import { type DiskFull, DiskFullError, type DiskName, NodeClosedError, NodeTimeoutError } from './errors.js';
import { openFilePorts } from './file-ports.js';
import type { AddressBook } from './members.js';
import { decodeMemberContext, encodeMemberContext, type MemberAddresses } from './members.js';
import {
  type MemberRole,
  type MemberStatus,
  NODE_DEFAULTS,
  type RaftDriverOptions,
  type RaftNodeEvents,
  type RaftNodeOptions,
  type RaftNodeStatus,
} from './node-options.js';
import { type AdmissionView, admitPeerMessages } from './peer-admission.js';
import { PendingWork } from './pending.js';
import type {
  IncomingSnapshots,
  LogStorage,
  NodePorts,
  SnapshotStorage,
  StableStorage,
  Transport,
} from './ports.js';
import { recover } from './recovery.js';
import { splitHeader, withHeader } from './snapshot-data.js';
import { VoteClock } from './vote-clock.js';

/**
 * A Raft node: the pure core plus everything with I/O around it — the log,
 * hard state, snapshot files, peer transport, tick timer and apply loop,
 * each behind a port (ports.ts; `open` uses the files and gRPC, the
 * simulator its simulated ones).
 *
 * The Ready loop (types.ts `Ready`, persistence contract in docs/design.md):
 * send `messages` at once; install a snapshot; append `entries` (one
 * synchronous write, group commit in the log store); then, when term or
 * vote changed or the commit index passed the configuration in effect, save
 * the hard state; send `persistedMessages`; apply `committedEntries`;
 * `advance`.
 */
/** A follower applies its committed entries at least every this many entries... */
export const APPLY_DEFER_MAX_ENTRIES = 32;
/** ...bytes of entry data... */
export const APPLY_DEFER_MAX_BYTES = 1024 * 1024;
/** ...and milliseconds while its leader streams entries (mayDeferApply). */
export const APPLY_DEFER_MAX_MS = 20;
/** Backoff of a write refused for room: from this... */
const ROOM_RETRY_MIN_MS = 100;
/** ...doubling up to this: a node may take this long to notice that room came back. */
export const ROOM_RETRY_MAX_MS = 2_000;

export class RaftNode extends EventEmitter<RaftNodeEvents> implements TransportHandler {
  readonly id: NodeId;
  readonly clusterId: string;
  private readonly core: RaftCore;
  protected readonly logStore: LogStorage;
  protected readonly hardState: StableStorage;
  private readonly snapshots: SnapshotStorage;
  private readonly incomingData: IncomingSnapshots;
  private readonly clock: Clock;
  private readonly book: AddressBook;
  private readonly transport: Transport;
  private readonly sm: StateMachine;
  private readonly log: Logger;
  private readonly tickMs: number;
  private readonly electionTicks: number;
  private readonly snapshotEveryEntries: number;
  private readonly snapshotKeepEntries: number;
  private readonly proposalTimeoutMs: number;
  private readonly readIndexTimeoutMs: number;
  private readonly membershipTimeoutMs: number;
  private readonly maxEntryBytes: number;
  /** Stamps vote requests with this node's wall clock and refuses candidates beyond the bound (vote-clock.ts). */
  private readonly voteClock: VoteClock;

  private readonly pending = new PendingWork();
  /** Received snapshot data by `index:term`, with the Ready round it was stepped in. */
  private readonly incoming = new Map<string, { path: string; seq: number }>();
  /** When a message from each peer last arrived (see `lastHeardFrom`). */
  private readonly heardAt = new Map<NodeId, number>();
  private readonly readPrefix: Buffer;
  private readSeq = 0;
  private readySeq = 0;
  private applied: number;
  private lastSnapshotIndex: number;
  private role: Role = 'follower';
  private leader: NodeId = '';
  private term = 0;
  private leaderReadyTerm = 0;
  private stopTicker: (() => void) | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private closing = false;
  private loopDone: Promise<void> = Promise.resolve();
  private snapshotTask: Promise<void> | undefined;
  private counters = { snapshotsTaken: 0, snapshotsInstalled: 0 };
  /** A disk found full by the last write to it, until a write there succeeds again. */
  private full: DiskFull | undefined;

  protected constructor(
    options: RaftDriverOptions,
    ports: NodePorts,
    parts: { core: RaftCore; book: AddressBook; applied: number },
  ) {
    super();
    this.id = options.id;
    this.clusterId = options.clusterId;
    this.sm = options.stateMachine;
    this.log = options.log ?? stderrLogger;
    this.core = parts.core;
    this.logStore = ports.log;
    this.hardState = ports.stable;
    this.snapshots = ports.snapshots;
    this.incomingData = ports.incoming;
    this.clock = ports.clock;
    this.book = parts.book;
    this.applied = parts.applied;
    this.lastSnapshotIndex = ports.log.snapshotMeta().index;
    this.readPrefix = Buffer.from(Array.from({ length: 8 }, () => Math.floor(ports.random() * 256)));
    this.tickMs = options.tickMs ?? NODE_DEFAULTS.tickMs;
    this.electionTicks = options.electionTicks ?? NODE_DEFAULTS.electionTicks;
    this.snapshotEveryEntries = options.snapshotEveryEntries ?? NODE_DEFAULTS.snapshotEveryEntries;
    this.snapshotKeepEntries = options.snapshotKeepEntries ?? NODE_DEFAULTS.snapshotKeepEntries;
    this.proposalTimeoutMs = options.proposalTimeoutMs ?? NODE_DEFAULTS.proposalTimeoutMs;
    this.readIndexTimeoutMs = options.readIndexTimeoutMs ?? NODE_DEFAULTS.readIndexTimeoutMs;
    this.membershipTimeoutMs = options.membershipTimeoutMs ?? NODE_DEFAULTS.membershipTimeoutMs;
    this.maxEntryBytes = options.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES;
    this.voteClock = new VoteClock({
      id: this.id,
      wallClock: options.wallClock,
      maxClockOffsetMs: options.maxClockOffsetMs ?? NODE_DEFAULTS.maxClockOffsetMs,
      monotonicMs: () => this.clock.monotonicMs(),
      log: this.log,
    });
    this.term = this.core.status().term;
    this.transport = ports.transport(this);
  }

  /**
   * Opens the node's storage in `options.dataDir` (recovering from a crash),
   * reconciles the state machine with the log and snapshot, starts the peer
   * server, the tick timer and the Ready loop.
   */
  static open(options: RaftNodeOptions): Promise<RaftNode> {
    return RaftNode.openWith(options, openFilePorts(options));
  }

  /** The same on any ports (the simulator's, for one). */
  static async openWith(options: RaftDriverOptions, ports: NodePorts): Promise<RaftNode> {
    const parts = await recover(options, ports, options.log ?? stderrLogger);
    const node = new this(options, ports, parts);
    await node.start();
    return node;
  }

  /** The bound Raft peer address. */
  get peerAddress(): string {
    return this.transport.address;
  }

  private async start(): Promise<void> {
    await this.transport.start();
    this.syncPeers();
    this.stopTicker = this.clock.every(this.tickMs, () => this.onTick());
    this.loopDone = this.runLoop();
  }

  // ---------------------------------------------------------------- client API

  /**
   * Proposes a command. Resolves with the state machine's result once the entry
   * is committed and applied on this node. Rejects with NotLeaderError
   * (leader id and address when known), ProposalDroppedError, RaftLimitError /
   * LimitError, or NodeClosedError.
   *
   * `durability: 'leader'` (DURABILITY_LEADER in docs/design.md) resolves with
   * `undefined` as soon as the entry is fsynced in this leader's log: it may
   * still be lost if the leader fails before a majority has it.
   */
  propose(data: Uint8Array, options: { durability?: 'quorum' | 'leader' } = {}): Promise<unknown> {
    if (this.closing) return Promise.reject(new NodeClosedError(`raft node ${this.id} is closed`));
    if (this.full) return Promise.reject(new DiskFullError(this.full));
    if (data.length > this.maxEntryBytes) {
      return Promise.reject(new LimitError('maxEntryBytes', this.maxEntryBytes, data.length));
    }
    let at: { index: number; term: number };
    try {
      at = this.core.propose(data);
    } catch (error) {
      return Promise.reject(this.translate(error));
    }
    return this.track(at, options.durability === 'leader');
  }

  /**
   * Resolves with a read index once it is safe to serve a linearizable read
   * from this node's state machine (the index is applied here).
   */
  readIndex(): Promise<number> {
    if (this.closing) return Promise.reject(new NodeClosedError(`raft node ${this.id} is closed`));
    const context = Buffer.alloc(16);
    this.readPrefix.copy(context, 0);
    context.writeBigUInt64BE(BigInt(++this.readSeq), 8);
    try {
      this.core.readIndex(context);
    } catch (error) {
      return Promise.reject(this.translate(error));
    }
    this.wake();
    return this.pending.addRead(context.toString('hex'), this.clock.monotonicMs() + this.readIndexTimeoutMs);
  }

  /**
   * Adds a member: as a learner (its addresses travel in the conf change), then,
   * once it has caught up with the commit index, promotes it to voter (unless
   * `learnerOnly`). Leader only. Resolves with the members afterwards.
   */
  async addMember(
    id: NodeId,
    peerAddress: string,
    clientAddress: string,
    options: { learnerOnly?: boolean } = {},
  ): Promise<readonly MemberStatus[]> {
    this.assertLeader();
    const deadline = this.clock.monotonicMs() + this.membershipTimeoutMs;
    const addresses = { peerAddress, clientAddress };
    if (this.book.set(id, addresses)) await this.book.save();
    this.transport.setPeer(id, peerAddress);
    let conf = this.core.status().conf;
    if (!conf.voters.includes(id) && !conf.learners.includes(id)) {
      await this.changeMembership(
        { type: 'add-learner', node: id, context: encodeMemberContext(addresses) },
        deadline,
      );
    }
    conf = this.core.status().conf;
    if (options.learnerOnly || conf.voters.includes(id)) return this.status().members;
    await this.until(deadline, `learner ${id} to catch up`, () => {
      const s = this.core.status();
      if (s.role !== 'leader') throw this.notLeader();
      return (s.progress.get(id)?.match ?? 0) >= s.commit;
    });
    await this.changeMembership({ type: 'promote', node: id }, deadline);
    return this.status().members;
  }

  /**
   * Removes a member (voter or learner). Leader only. Resolves once the removal
   * committed and a majority of the new configuration is known to hold that
   * commit durably (docs/design.md, "Removal"): only then may the removed node be
   * shut down, since a remaining voter that missed the commit still counts it and
   * may need its vote. Called again for a member already removed, it waits for
   * the same on this leader. A leader removing itself steps down once that is
   * known; a failure (it lost the leadership, or the new configuration did not
   * confirm in time) means the removed node must keep running: call it again on
   * the new leader.
   */
  async removeMember(id: NodeId): Promise<readonly MemberStatus[]> {
    this.assertLeader();
    const deadline = this.clock.monotonicMs() + this.membershipTimeoutMs;
    const conf = this.core.status().conf;
    if (conf.voters.includes(id) || conf.learners.includes(id)) {
      await this.changeMembership({ type: 'remove', node: id }, deadline);
    }
    const at = this.core.confIndex();
    await this.until(deadline, `a majority of the new configuration to confirm the removal of ${id}`, () => {
      if (this.removalConfirmed(at)) return true;
      if (this.core.status().role !== 'leader') {
        throw this.withAddresses(
          this.core.status().leader,
          `the removal of ${id} committed, but this node stopped leading before a majority of the new configuration confirmed it: keep ${id} running and call RemoveMember on the leader`,
        );
      }
      return false;
    });
    return this.status().members;
  }

  /** Whether a majority of the configuration is known to hold the commit of the configuration entry at `index` durably. */
  protected removalConfirmed(index: number): boolean {
    return this.core.announced(index);
  }

  /**
   * Hands leadership to `to` (default: the most caught-up voter). Leader only.
   * Resolves with the new leader's id once it leads.
   */
  async transferLeadership(to?: NodeId): Promise<NodeId> {
    this.assertLeader();
    const s = this.core.status();
    let target = to;
    if (!target) {
      let best = -1;
      for (const v of s.conf.voters) {
        const match = s.progress.get(v)?.match ?? -1;
        if (v !== this.id && match > best) {
          best = match;
          target = v;
        }
      }
    }
    if (!target || target === this.id) return this.id;
    if (!s.conf.voters.includes(target))
      throw new InvalidConfChangeError(`cannot transfer leadership to ${target}: not a voter`);
    this.core.transferLeadership(target);
    this.wake();
    const goal = target;
    // The core gives a transfer up when it has not finished within an election timeout:
    // still leader, nothing under way. Waiting on would not move leadership (a shutdown
    // of every node at once would wait here for targets that are gone).
    let abandoned = false;
    await this.until(
      this.clock.monotonicMs() + this.electionTicks * this.tickMs * 3,
      `leadership to move to ${goal}`,
      () => {
        const s = this.core.status();
        abandoned = s.leader !== goal && s.role === 'leader' && s.transferee === '';
        return s.leader === goal || abandoned;
      },
    );
    if (abandoned)
      throw new NodeTimeoutError(
        `timed out waiting for leadership to move to ${goal}: the transfer was given up after an election timeout`,
      );
    return goal;
  }

  status(): RaftNodeStatus {
    const s = this.core.status();
    const members: MemberStatus[] = [];
    const all = [...s.conf.voters, ...s.conf.learners];
    for (const id of all) {
      const addresses = this.book.get(id);
      const voter = s.conf.voters.includes(id);
      const progress = s.progress.get(id);
      let role: MemberRole;
      if (id === this.id) role = s.role;
      else if (id === s.leader) role = 'leader';
      else if (progress && !progress.reachable) role = 'unreachable';
      else role = voter ? 'follower' : 'learner';
      const matchIndex = id === this.id ? s.lastIndex : (progress?.match ?? 0);
      members.push({
        id,
        peerAddress: addresses?.peerAddress ?? '',
        clientAddress: addresses?.clientAddress ?? '',
        role,
        voter,
        matchIndex,
        lag: s.role === 'leader' ? Math.max(0, s.lastIndex - matchIndex) : 0,
      });
    }
    return {
      id: this.id,
      clusterId: this.clusterId,
      role: s.role,
      term: s.term,
      leader: s.leader,
      leaderAddress: (s.leader && this.book.get(s.leader)?.clientAddress) || '',
      commit: s.commit,
      applied: this.applied,
      lastIndex: s.lastIndex,
      firstIndex: this.logStore.firstIndex(),
      snapshotIndex: this.logStore.snapshotMeta().index,
      members,
      counters: {
        fsyncs: this.logStore.fsyncs,
        entriesSynced: this.logStore.entriesSynced,
        snapshotsTaken: this.counters.snapshotsTaken,
        snapshotsInstalled: this.counters.snapshotsInstalled,
        snapshotsSent: this.transport.stats.snapshotsSent,
        proposalsDropped: this.pending.dropped,
        peerRefused: { ...this.transport.stats.refused },
        clockRefusals: this.voteClock.counts,
      },
    };
  }

  /** The client address of a member, if known. */
  memberAddresses(id: NodeId): MemberAddresses | undefined {
    return this.book.get(id);
  }

  isLeader(): boolean {
    // While a disk is full the loop waits on a write and takes no Ready: the core's role is the
    // current one (it steps down on a newer term meanwhile), so that callers are sent to the new leader.
    return this.role === 'leader' && (this.full === undefined || this.core.status().role === 'leader');
  }

  /**
   * Stops the timer, the loop and the transport, rejects everything pending
   * and closes the log. The state machine is the caller's to close (after this).
   */
  async close(): Promise<void> {
    if (this.closing) return this.loopDone;
    this.closing = true;
    this.stopTicker?.();
    this.wake();
    await this.loopDone.catch(() => undefined);
    this.pending.failAll('closed', `raft node ${this.id} closed`);
    await this.transport.close();
    await this.snapshotTask?.catch(() => undefined);
    await this.logStore.close();
  }

  /** The disk this node found full and waits for room on, if any (docs/operations.md, "A full disk"). */
  diskFull(): DiskFull | undefined {
    return this.full;
  }

  /** When a message from `id` last arrived here, on the monotonic clock (`performance.now()` in production); undefined if none did. */
  lastHeardFrom(id: NodeId): number | undefined {
    return this.heardAt.get(id);
  }

  // ---------------------------------------------------------------- transport handler

  receive(messages: Message[]): void {
    if (this.closing) return;
    const now = this.clock.monotonicMs();
    let refusals: Message[] | undefined;
    for (const m of messages) {
      this.heardAt.set(m.from, now);
      // A candidate whose clock is beyond the bound gets a refusal and never reaches the core.
      const refusal = this.voteClock.refusal(m, () => this.core.status().term);
      if (refusal) {
        (refusals ??= []).push(refusal);
        continue;
      }
      this.voteClock.observe(m);
      try {
        this.core.step(m);
      } catch (error) {
        // A broken invariant or a storage read error: the core may be half-way through a step.
        this.fatal(error instanceof Error ? error : new Error(String(error)));
        return;
      }
    }
    // A refusal promises nothing about this node's disk: it leaves at once.
    if (refusals) this.transport.send(refusals);
    this.wake();
  }

  async receiveSnapshot(message: Message, dataFile: string): Promise<void> {
    const meta = message.snapshot;
    if (this.closing || !meta) {
      this.incomingData.discard(dataFile);
      throw new NodeClosedError('node closing');
    }
    const key = `${meta.index}:${meta.term}`;
    const old = this.incoming.get(key);
    if (old && old.path !== dataFile) this.incomingData.discard(old.path);
    this.incoming.set(key, { path: dataFile, seq: this.readySeq });
    this.receive([message]);
  }

  /** Whether `id` may hand these messages to Raft: see peer-admission.ts. */
  admit(id: NodeId, messages: readonly Message[], identity: SenderIdentity = 'claimed'): Admission {
    return admitPeerMessages(this.admissionView(), id, messages, identity);
  }

  /** What the admission rule knows of this node (the simulator's injected bugs read it too). */
  protected admissionView(): AdmissionView {
    const conf = this.core.currentConf();
    return {
      term: this.core.currentTerm(),
      vote: this.core.currentVote(),
      voters: conf.voters,
      learners: conf.learners,
      pendingMembers: this.core.pendingMembers(),
      removedAt: this.removedAt,
      isKnown: this.isKnown,
    };
  }

  private readonly removedAt = (peer: NodeId): number | undefined => this.book.removedAt(peer);
  private readonly isKnown = (peer: NodeId): boolean => this.book.get(peer) !== undefined;

  reportUnreachable(id: NodeId): void {
    if (this.closing) return;
    this.core.reportUnreachable(id);
  }

  reportSnapshot(id: NodeId, ok: boolean): void {
    if (this.closing) return;
    this.core.reportSnapshot(id, ok);
    this.wake();
  }

  // ---------------------------------------------------------------- the loop

  private wake(): void {
    this.woken = true;
    const w = this.wakeUp;
    this.wakeUp = undefined;
    w?.();
  }

  private onTick(): void {
    if (this.closing) return;
    // A node whose disk is full neither campaigns nor, leading, sends heartbeats: it cannot
    // write what a leader must, so the others elect one of themselves (docs/design.md, "Disk faults").
    if (this.full === undefined) this.core.tick();
    // Entries kept for a later apply do not wait for the next Ready past their bound.
    if (this.deferred.length > 0 && this.clock.monotonicMs() - this.deferredSinceMs >= APPLY_DEFER_MAX_MS)
      this.applyDeferred();
    this.pending.expire(this.clock.monotonicMs(), () =>
      this.notLeader(`read index not confirmed within ${this.readIndexTimeoutMs} ms`),
    );
    this.wake();
  }

  /**
   * The apply of the previous Ready's committed entries. It runs while the
   * next Ready is persisted and sent (CPU next to fdatasync and the network),
   * and is awaited before the next apply starts, so entries apply one batch at
   * a time, in order, with at most one batch behind the log.
   */
  private applying: Promise<void> = Promise.resolve();
  /** Committed entries a follower keeps for a later apply (mayDeferApply), in order. */
  private deferred: Entry[] = [];
  private deferredBytes = 0;
  private deferredSinceMs = 0;
  private deferredConf = false;

  private async runLoop(): Promise<void> {
    while (!this.closing) {
      if (!this.core.hasReady()) {
        if (!this.woken) await new Promise<void>((resolve) => (this.wakeUp = resolve));
        this.woken = false;
        continue;
      }
      try {
        const rd = this.core.ready();
        this.readySeq++;
        await this.handleReady(rd);
        this.core.advance(rd);
      } catch (error) {
        this.fatal(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      this.afterAdvance();
    }
    await this.applying;
  }

  private async handleReady(rd: Ready): Promise<void> {
    // Read before any await: the core keeps stepping while this Ready is persisted.
    const confIndex = this.core.confIndex();
    if (rd.softState) this.onSoftState(rd.softState.role, rd.softState.leader);
    this.term = rd.hardState?.term ?? this.term;
    this.send(rd.messages);
    if (rd.snapshot) {
      this.applyDeferred();
      await this.applying;
      await this.installSnapshot(rd.snapshot);
    }
    if (rd.entries.length > 0) {
      this.pending.dropOverwritten(rd.entries, this.readySeq);
      this.learnAddresses(rd.entries);
    }
    await this.persist(rd.entries, rd.hardState, confIndex);
    if (rd.entries.length > 0) this.pending.resolveDurable(rd.entries);
    this.send(rd.persistedMessages);
    if (rd.committedEntries.length > 0) this.deferApply(rd.committedEntries);
    if (this.deferred.length > 0 && !this.mayDeferApply(rd)) {
      await this.applying;
      this.applyDeferred();
    }
    for (const rs of rd.readStates)
      this.pending.readConfirmed(Buffer.from(rs.context).toString('hex'), rs.index);
  }

  /** Starts the apply of the deferred entries after the apply under way, if any. */
  private applyDeferred(): void {
    if (this.deferred.length === 0) return;
    const entries = this.deferred;
    this.deferred = [];
    this.deferredBytes = 0;
    this.deferredConf = false;
    this.applying = this.applying
      .then(() => this.apply(entries))
      .catch((error: unknown) => {
        this.fatal(error instanceof Error ? error : new Error(String(error)));
      });
  }

  private deferApply(entries: readonly Entry[]): void {
    if (this.deferred.length === 0) {
      this.deferredSinceMs = this.clock.monotonicMs();
      this.deferred = entries.slice();
    } else {
      for (const e of entries) this.deferred.push(e);
    }
    for (const e of entries) {
      this.deferredBytes += e.data.length;
      if (e.type === 'conf-change') this.deferredConf = true;
    }
  }

  /**
   * Whether a follower may keep the committed entries it holds for a later
   * apply: while its leader streams entries (each Ready writes new ones),
   * up to APPLY_DEFER_MAX_ENTRIES / _BYTES / _MS, so that one state machine
   * batch (one hand-off to its store and back) serves many rounds. Nothing
   * waits on them: a leader, a candidate, a read or a proposal waiting, a
   * configuration change, a snapshot to install or an idle round (no new
   * entries: the commit came with a heartbeat) applies at once.
   */
  private mayDeferApply(rd: Ready): boolean {
    return (
      !this.deferredConf &&
      this.role === 'follower' &&
      !this.closing &&
      rd.entries.length > 0 &&
      !rd.snapshot &&
      this.deferred.length < APPLY_DEFER_MAX_ENTRIES &&
      this.deferredBytes < APPLY_DEFER_MAX_BYTES &&
      this.pending.readCount === 0 &&
      this.pending.proposalCount === 0 &&
      this.clock.monotonicMs() - this.deferredSinceMs < APPLY_DEFER_MAX_MS
    );
  }

  private afterAdvance(): void {
    this.pending.resolveReads(this.applied);
    // Snapshot data stepped before this Ready was taken and not installed by it: the core declined it.
    for (const [k, { path, seq }] of this.incoming) {
      if (seq < this.readySeq) {
        this.incomingData.discard(path);
        this.incoming.delete(k);
      }
    }
    this.maybeSnapshot();
  }

  /**
   * Takes a snapshot once `snapshotEveryEntries` were applied since the last
   * one, unless one is under way. Checked after each Ready, after each apply
   * (which may end after its Ready's check) and when a snapshot succeeded
   * (entries applied meanwhile count), so an idle node does not leave the
   * policy unmet until its next Ready.
   */
  private maybeSnapshot(): void {
    if (
      this.snapshotTask ||
      this.closing ||
      this.applied - this.lastSnapshotIndex < this.snapshotEveryEntries
    ) {
      return;
    }
    this.snapshotTask = this.takeSnapshot().then(
      () => {
        this.snapshotTask = undefined;
        this.maybeSnapshot();
      },
      (error: unknown) => {
        this.snapshotTask = undefined;
        // Refused for room: tried again at the next Ready or apply, as below.
        if (isRetryable(error) || isNoSpace(error)) {
          this.log.warn({ id: this.id, err: String(error) }, 'raft: no room to take a snapshot now');
          return;
        }
        // A failed write of the log store (recording the snapshot, compacting) poisons it: fail-stop.
        if (error instanceof StorageError) {
          this.fatal(error);
          return;
        }
        // Tried again at the next Ready or apply, not at once: a failing disk is not retried in a loop.
        this.log.error({ id: this.id, err: String(error) }, 'raft: taking a snapshot failed');
      },
    );
  }

  private send(messages: readonly Message[]): void {
    if (messages.length === 0) return;
    let plain: Message[] | undefined;
    for (const m of messages) {
      if (m.type === 'snapshot') this.sendSnapshot(m);
      else (plain ??= []).push(this.voteClock.stamp(m));
    }
    if (plain) this.transport.send(plain);
  }

  /** Streams the latest snapshot file (which may be newer than the core's meta: then its meta goes). */
  private sendSnapshot(m: Message): void {
    void (async () => {
      const reader = await this.snapshots.read({ verifyFirst: false }).catch(() => undefined);
      if (!reader) {
        this.core.reportSnapshot(m.to, false);
        return;
      }
      const message: Message = {
        ...m,
        index: reader.meta.index,
        logTerm: reader.meta.term,
        snapshot: reader.meta,
      };
      if (!this.transport.sendSnapshot(message, async () => reader.chunks)) await reader.close();
    })();
  }

  private async apply(entries: readonly Entry[]): Promise<void> {
    // A state machine whose store refused the batch for room wrote none of it (StateMachine.apply).
    const results = await this.withRoom('state', () => this.sm.apply(entries));
    if (results.length !== entries.length) {
      throw new InvariantError('state machine returns one result per entry', {
        entries: entries.length,
        results: results.length,
      });
    }
    let membershipChanged = false;
    entries.forEach((e, i) => {
      if (e.type === 'conf-change') {
        membershipChanged = true;
        const change = decodeConfChange(e.data);
        const addresses = decodeMemberContext(change.context);
        if (addresses) this.book.set(change.node, addresses);
        this.book.setRemoved(change.node, change.type === 'remove' ? e.term : undefined);
      }
      this.pending.applied(e, results[i]);
    });
    const last = entries.at(-1) as Entry;
    this.applied = last.index;
    if (membershipChanged) {
      await this.withRoom('log', () => this.book.save());
      this.syncPeers();
    }
    this.emit('applied', { index: this.applied });
    this.pending.resolveReads(this.applied);
    this.maybeSnapshot();
    if (this.role === 'leader' && last.term === this.term && this.leaderReadyTerm !== this.term) {
      this.leaderReadyTerm = this.term;
      // A leader that applied its own removal only hands over and steps down: it serves nothing.
      if (this.core.status().conf.voters.includes(this.id)) this.emit('became-leader', { term: this.term });
    }
  }

  private async installSnapshot(meta: SnapshotMeta): Promise<void> {
    // A snapshot that ends may start the next (maybeSnapshot): wait until none runs.
    while (this.snapshotTask) await this.snapshotTask;
    const key = `${meta.index}:${meta.term}`;
    const file = this.incoming.get(key)?.path;
    if (!file) {
      throw new InvariantError('a snapshot the core accepted has its data here', {
        index: meta.index,
        term: meta.term,
      });
    }
    // Durable first (the file survives a crash and start-up finishes the install), then the state machine, then the log.
    await this.withRoom('log', () => this.snapshots.write(meta, this.incomingData.open(file)));
    const reader = await this.snapshots.read();
    invariant(reader, 'the snapshot file just written reads back');
    const { header, rest } = await splitHeader(reader.chunks);
    for (const [id, a] of Object.entries(header.members)) this.book.set(id, a);
    await this.withRoom('log', () => this.book.save());
    const restored = await this.withRoom(
      'state',
      () => this.sm.restore(rest),
      async () => {
        const again = await this.snapshots.read();
        invariant(again, 'the snapshot file just written reads back on a retry');
        return this.sm.restore((await splitHeader(again.chunks)).rest);
      },
    );
    if (restored !== meta.index) {
      throw new InvariantError('restored state machine is at the snapshot index', {
        restored,
        index: meta.index,
      });
    }
    await this.withRoom('state', () => this.sm.flush());
    await this.withRoom(
      'log',
      () => this.logStore.installSnapshot(meta),
      () => this.logStore.sync(),
    );
    for (const [k, { path }] of this.incoming) {
      const index = Number(k.split(':')[0]);
      if (index <= meta.index) {
        this.incomingData.discard(path);
        this.incoming.delete(k);
      }
    }
    this.applied = meta.index;
    this.lastSnapshotIndex = meta.index;
    this.counters.snapshotsInstalled++;
    this.pending.dropUpTo(meta.index);
    this.syncPeers();
    this.log.info({ id: this.id, index: meta.index, term: meta.term }, 'raft: snapshot installed');
    this.emit('snapshot', { kind: 'installed', meta });
  }

  /** Snapshot policy: every N applied entries; compact to M entries behind what the store has durably recorded. */
  private async takeSnapshot(): Promise<void> {
    const { index, chunks } = await this.sm.snapshot();
    if (index <= this.logStore.snapshotMeta().index || this.logStore.term(index) === undefined) {
      // A snapshot installed meanwhile is newer; consume nothing more. The policy counts from
      // it (else maybeSnapshot would start this again at once, in a loop).
      this.lastSnapshotIndex = Math.max(this.lastSnapshotIndex, index, this.logStore.snapshotMeta().index);
      for await (const _ of chunks) {
        // drain
      }
      return;
    }
    const meta = this.core.snapshotMetaAt(index);
    const info = await this.snapshots.write(meta, withHeader({ members: this.book.toJSON() }, chunks));
    if (info.meta.index !== meta.index) return;
    if (this.logStore.snapshotMeta().index < meta.index && this.logStore.term(meta.index) === meta.term) {
      await this.logStore.recordSnapshot(meta);
    }
    this.lastSnapshotIndex = meta.index;
    this.counters.snapshotsTaken++;
    this.emit('snapshot', { kind: 'taken', meta });
    // The compaction rule (docs/design.md): never past what the store has durably recorded.
    const flushed = await this.sm.flush();
    const compactTo = Math.min(flushed, this.logStore.snapshotMeta().index) - this.snapshotKeepEntries;
    if (compactTo >= this.logStore.firstIndex()) await this.logStore.compact(compactTo);
  }

  // ---------------------------------------------------------------- proposals and reads

  private track(at: { index: number; term: number }, leaderLogOnly = false): Promise<unknown> {
    this.wake();
    return this.pending.track(
      at,
      this.readySeq,
      this.clock.monotonicMs() + this.proposalTimeoutMs,
      leaderLogOnly,
    );
  }

  /**
   * Step 2 of a Ready (persistence contract, docs/design.md): the log append,
   * then the hard state that depends on it, never concurrently. The hard
   * state is saved when term or vote changed, or when the commit index
   * passed the entry that set the configuration in effect.
   */
  protected async persist(
    entries: readonly Entry[],
    hs: HardState | undefined,
    confIndex: number,
  ): Promise<void> {
    // Persistence contract (docs/design.md): the log first, then the hard state it depends on.
    if (entries.length > 0) {
      this.assertNoIdenticalRewrite(entries);
      // Refused for room: the store keeps the entries queued, and writes them again once there is room.
      await this.withRoom(
        'log',
        () => this.logStore.append(entries, { commit: this.hardState.get().commit }),
        () => this.logStore.sync(),
      );
    }
    if (hs && (mustPersist(this.hardState.get(), hs) || confIndex > this.hardState.get().commit)) {
      invariant(
        hs.commit <= this.logStore.lastIndex(),
        'the saved commit index is within the durable log',
        () => ({
          id: this.id,
          commit: hs.commit,
          lastIndex: this.logStore.lastIndex(),
        }),
      );
      await this.withRoom('log', () => this.hardState.save(hs));
    }
    if (hs) {
      const saved = this.hardState.get();
      invariant(
        saved.term === hs.term && saved.vote === hs.vote && saved.commit >= confIndex,
        'term, vote and the commit of the configuration in effect are durable before persisted messages leave',
        () => ({ id: this.id, saved, ready: hs, confIndex }),
      );
    }
  }

  /**
   * A Ready never hands out an entry the store already holds with the same
   * index and term: rewriting it would truncate durable, acknowledged entries
   * first (a crash in between loses them).
   */
  protected assertNoIdenticalRewrite(entries: readonly Entry[]): void {
    const first = entries[0] as Entry;
    const last = this.logStore.lastIndex();
    invariant(
      first.index === last + 1 || (first.index <= last && this.logStore.term(first.index) !== first.term),
      'the log is rewritten only from the first index whose term differs',
      () => ({
        id: this.id,
        firstHandedOut: `${first.index}/t${first.term}`,
        storedTerm: this.logStore.term(first.index),
        lastIndex: last,
      }),
    );
  }

  private onSoftState(role: Role, leader: NodeId): void {
    const wasLeader = this.role === 'leader';
    const leaderChanged = leader !== this.leader;
    this.role = role;
    this.leader = leader;
    const term = this.core.status().term;
    if (wasLeader && role !== 'leader') {
      // Our proposals may still commit under the next leader; wait a little for their fate, not forever.
      this.pending.shortenDeadlines(this.clock.monotonicMs() + 2 * this.electionTicks * this.tickMs);
      this.emit('lost-leadership', { term, leader });
    }
    if (leaderChanged) {
      this.pending.rejectUnconfirmedReads(() =>
        this.notLeader('leader changed before the read was confirmed'),
      );
      this.emit('leader-changed', { leader, term });
    }
  }

  private learnAddresses(entries: readonly Entry[]): void {
    let changed = false;
    for (const e of entries) {
      if (e.type !== 'conf-change') continue;
      const change = decodeConfChange(e.data);
      const addresses = decodeMemberContext(change.context);
      if (addresses && this.book.set(change.node, addresses)) changed = true;
      if (addresses) this.transport.setPeer(change.node, addresses.peerAddress);
    }
    if (changed)
      void this.withRoom('log', () => this.book.save()).catch((error: unknown) =>
        this.fatal(error instanceof Error ? error : new Error(String(error))),
      );
  }

  /** Peers are the configuration's members (everyone in the book while no configuration is known). */
  private syncPeers(): void {
    const conf = this.core.status().conf;
    const members = new Set([...conf.voters, ...conf.learners]);
    const known = members.size === 0 ? this.book.entries().map(([id]) => id) : [...members];
    for (const id of known) {
      const a = this.book.get(id);
      if (a && id !== this.id) this.transport.setPeer(id, a.peerAddress);
    }
    if (members.size > 0) {
      for (const id of Object.keys(this.transport.stats.peers))
        if (!members.has(id)) this.transport.removePeer(id);
    }
  }

  // ---------------------------------------------------------------- membership helpers

  private async changeMembership(change: ConfChange, deadline: number): Promise<void> {
    for (;;) {
      try {
        const at = this.core.proposeConfChange(change);
        await this.track(at);
        return;
      } catch (error) {
        if (!(error instanceof ConfChangeInProgressError) || this.clock.monotonicMs() > deadline)
          throw this.translate(error);
      }
      await this.clock.sleep(this.tickMs);
      this.assertLeader();
    }
  }

  private async until(deadline: number, what: string, done: () => boolean): Promise<void> {
    while (!done()) {
      if (this.closing) throw new NodeClosedError(`raft node ${this.id} closed while waiting for ${what}`);
      if (this.clock.monotonicMs() > deadline) throw new NodeTimeoutError(`timed out waiting for ${what}`);
      await this.clock.sleep(this.tickMs);
    }
  }

  private assertLeader(): void {
    if (this.closing) throw new NodeClosedError(`raft node ${this.id} is closed`);
    if (this.core.status().role !== 'leader') throw this.notLeader();
  }

  private notLeader(message?: string): NotLeaderError {
    const leader = this.core.status().leader;
    return this.withAddresses(leader === this.id ? '' : leader, message);
  }

  /** A NotLeaderError carrying the leader's addresses from the address book. */
  private withAddresses(leader: NodeId, message?: string): NotLeaderError {
    const a = leader ? this.book.get(leader) : undefined;
    return new NotLeaderError(leader, message, {
      client: a?.clientAddress ?? '',
      peer: a?.peerAddress ?? '',
    });
  }

  private translate(error: unknown): Error {
    if (error instanceof NotLeaderError && error.leaderAddress === '' && error.leaderPeerAddress === '') {
      return this.withAddresses(error.leader, error.message);
    }
    return error instanceof Error ? error : new Error(String(error));
  }

  /**
   * Runs a write; while its disk refuses it for room (a write that can be made
   * again: `isRetryable`, or the state machine's ENOSPC, which wrote nothing),
   * makes it again (`again`, default the same) with backoff until it succeeds.
   * Meanwhile the node is marked full (`diskFull`, the 'disk-full' event) and
   * refuses proposals; the loop waits here, so nothing after this write
   * happens: no acknowledgement of entries not written, no apply past what
   * the store holds. Any other failure throws (fail-stop).
   */
  private async withRoom<T>(disk: DiskName, write: () => Promise<T>, again = write): Promise<T> {
    let attempt = write;
    let delayMs = ROOM_RETRY_MIN_MS;
    for (;;) {
      try {
        const out = await attempt();
        if (this.full?.disk === disk) {
          const was = this.full;
          this.full = undefined;
          this.log.warn(
            { id: this.id, disk, path: was.path, fullMs: Math.round(this.clock.monotonicMs() - was.sinceMs) },
            'raft: the disk has room again; the node goes on',
          );
          this.emit('disk-has-room', { disk });
        }
        return out;
      } catch (error) {
        const retryable = disk === 'log' ? isRetryable(error) : isNoSpace(error);
        if (!retryable || this.closing) throw error;
        if (this.full === undefined) {
          const path = String(
            (error as { file?: unknown; path?: unknown }).file ?? (error as { path?: unknown }).path ?? '',
          );
          this.full = {
            disk,
            path,
            sinceMs: this.clock.monotonicMs(),
            message: String((error as Error).message ?? error),
          };
          this.log.error(
            { id: this.id, disk, path, err: this.full.message },
            'raft: the disk is full; the node refuses writes and tries again until it has room',
          );
          this.emit('disk-full', this.full);
          // A leader that cannot write hands over at once, rather than after an election timeout.
          if (this.role === 'leader') void this.transferLeadership().catch(() => undefined);
        }
      }
      await this.clock.sleep(delayMs);
      if (this.closing)
        throw new NodeClosedError(`raft node ${this.id} closed while waiting for room on its ${disk} disk`);
      delayMs = Math.min(2 * delayMs, ROOM_RETRY_MAX_MS);
      attempt = again;
    }
  }

  private fatal(error: Error): void {
    if (this.closing) return;
    this.log.error({ id: this.id, err: error.stack ?? String(error) }, 'raft: fatal error, node stops');
    void this.close();
    if (this.listenerCount('fatal') > 0) this.emit('fatal', error);
  }
}
