import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createReadStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { decodeConfChange } from '../core/conf-change.js';
import { ConfChangeInProgressError, invariant, NotLeaderError, RaftInvariantError } from '../core/errors.js';
import { RaftCore } from '../core/raft-core.js';
import { LimitError } from '../log/errors.js';
import type { FsyncSample } from '../log/group-writer.js';
import { HardStateFile, mustPersist } from '../log/hard-state.js';
import { DEFAULT_MAX_ENTRY_BYTES, LogStore } from '../log/log-store.js';
import { SnapshotFiles } from '../log/snapshot-store.js';
import { type Logger, stderrLogger } from '../transport/logger.js';
import {
  PeerTransport,
  type PeerTransportOptions,
  type TransportHandler,
} from '../transport/peer-transport.js';
import type {
  ConfChange,
  Entry,
  Message,
  NodeId,
  Ready,
  Role,
  SnapshotMeta,
  StateMachine,
} from '../types.js';
import { NodeClosedError, NodeNotLeaderError, ProposalDroppedError } from './errors.js';
import { AddressBook, decodeMemberContext, encodeMemberContext, type MemberAddresses } from './members.js';
import { splitHeader, withHeader } from './snapshot-data.js';

/**
 * Timing defaults, for a LAN of machines that are also busy with fsyncs and
 * LevelDB compactions. A tick of 50 ms and a heartbeat every tick (50 ms) keep
 * commit latency of an idle follower low and let a leader notice a dead peer
 * fast. The election timeout is 20 ticks (1-2 s after randomisation), twice
 * etcd's 10: on two shared cores an event-loop stall of a few hundred ms (a
 * large apply, GC, a slow fdatasync) is common, and an election timeout close
 * to it turns every stall into a needless election. Failover still finishes
 * within about two seconds.
 */
export const NODE_DEFAULTS = {
  tickMs: 50,
  electionTicks: 20,
  heartbeatTicks: 1,
  snapshotEveryEntries: 10_000,
  snapshotKeepEntries: 5_000,
  proposalTimeoutMs: 30_000,
  readIndexTimeoutMs: 5_000,
  membershipTimeoutMs: 60_000,
} as const;

export interface RaftNodeOptions {
  readonly id: NodeId;
  /** Every peer batch carries it; a peer of another cluster is turned away. */
  readonly clusterId: string;
  /** Log segments, hard state, snapshot, address book. */
  readonly dataDir: string;
  /** host:port the Raft peer server listens on (port 0 picks one: see `peerAddress`). */
  readonly listenPeerAddress: string;
  /** The static bootstrap list (`id=host:port`, like etcd's initial cluster), this node included. */
  readonly initialMembers: Readonly<Record<NodeId, MemberAddresses>>;
  /** A node added to a running cluster starts with no voters and waits for the leader to reach it. */
  readonly join?: boolean;
  readonly stateMachine: StateMachine;
  readonly tickMs?: number;
  readonly electionTicks?: number;
  readonly heartbeatTicks?: number;
  /** A snapshot is taken every this many applied entries. */
  readonly snapshotEveryEntries?: number;
  /** Entries kept in the log behind the latest snapshot, so slow followers catch up without one. */
  readonly snapshotKeepEntries?: number;
  /** A proposal whose fate is still unknown after this long is rejected (ProposalDroppedError, not definite). */
  readonly proposalTimeoutMs?: number;
  readonly readIndexTimeoutMs?: number;
  /** How long addMember waits for the learner to catch up (and transfers for the new leader). */
  readonly membershipTimeoutMs?: number;
  /** Largest proposal accepted (LimitError beyond). */
  readonly maxEntryBytes?: number;
  /** Log segment size; compaction deletes whole segments only (log store default 64 MiB). */
  readonly logSegmentBytes?: number;
  /** Bytes of recent log entries kept in memory for followers' appends (log store default 16 MiB). */
  readonly logCacheBytes?: number;
  /** Called after every fdatasync of the log (duration, entries, bytes): for metrics. */
  readonly onFsync?: (sample: FsyncSample) => void;
  readonly maxUncommittedBytes?: number;
  readonly maxMsgBytes?: number;
  readonly maxInflight?: number;
  /** The only randomness of the core (election timeouts). Default Math.random. */
  readonly random?: () => number;
  readonly log?: Logger;
  readonly transport?: Partial<
    Omit<
      PeerTransportOptions,
      'id' | 'clusterId' | 'listenAddress' | 'incomingSnapshotDir' | 'handler' | 'log'
    >
  >;
}

export type MemberRole = 'leader' | 'follower' | 'candidate' | 'pre-candidate' | 'learner' | 'unreachable';

export interface MemberStatus {
  readonly id: NodeId;
  readonly peerAddress: string;
  readonly clientAddress: string;
  readonly role: MemberRole;
  readonly voter: boolean;
  /** As seen by the leader (0 on other nodes, except for themselves). */
  readonly matchIndex: number;
  /** The leader's last index minus matchIndex (leader's view; 0 elsewhere). */
  readonly lag: number;
}

export interface RaftNodeStatus {
  readonly id: NodeId;
  readonly clusterId: string;
  readonly role: Role;
  readonly term: number;
  readonly leader: NodeId;
  /** The leader's client address ('' when unknown). */
  readonly leaderAddress: string;
  readonly commit: number;
  readonly applied: number;
  readonly lastIndex: number;
  readonly firstIndex: number;
  readonly snapshotIndex: number;
  readonly members: readonly MemberStatus[];
  readonly counters: {
    readonly fsyncs: number;
    readonly entriesSynced: number;
    readonly snapshotsTaken: number;
    readonly snapshotsInstalled: number;
    readonly snapshotsSent: number;
    readonly proposalsDropped: number;
  };
}

export interface RaftNodeEvents {
  /** Leader known or changed ('' = none known). */
  'leader-changed': [{ leader: NodeId; term: number }];
  /** This node leads and has applied its term's first entry: its state machine is current. Once per term. */
  'became-leader': [{ term: number }];
  'lost-leadership': [{ term: number; leader: NodeId }];
  /** Committed entries up to `index` were applied. */
  applied: [{ index: number }];
  snapshot: [{ kind: 'taken' | 'installed'; meta: SnapshotMeta }];
  /** An unrecoverable error (disk failure, broken invariant): the node has stopped. */
  fatal: [Error];
}

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

/**
 * A Raft node: the pure core plus everything with I/O around it — the log
 * store, hard state, snapshot files, peer transport, tick timer and apply loop.
 *
 * The Ready loop (types.ts `Ready`): send `messages` at once; install a
 * snapshot; append `entries` (one fdatasync, group commit in the log store)
 * and, only when term or vote changed, the hard state; send
 * `persistedMessages`; apply `committedEntries`; `advance`. The commit index
 * is volatile (re-learned from the leader), so on restart it is taken as
 * max(saved commit, applied index): what the state machine applied was
 * committed.
 */
export class RaftNode extends EventEmitter<RaftNodeEvents> implements TransportHandler {
  readonly id: NodeId;
  readonly clusterId: string;
  private readonly core: RaftCore;
  private readonly logStore: LogStore;
  private readonly hardState: HardStateFile;
  private readonly snapshots: SnapshotFiles;
  private readonly book: AddressBook;
  private readonly transport: PeerTransport;
  private readonly sm: StateMachine;
  private readonly log: Logger;
  private readonly incomingDir: string;
  private readonly tickMs: number;
  private readonly electionTicks: number;
  private readonly snapshotEveryEntries: number;
  private readonly snapshotKeepEntries: number;
  private readonly proposalTimeoutMs: number;
  private readonly readIndexTimeoutMs: number;
  private readonly membershipTimeoutMs: number;
  private readonly maxEntryBytes: number;

  private readonly pending = new Map<number, PendingProposal>();
  private readonly reads = new Map<string, PendingRead>();
  /** Received snapshot data by `index:term`, with the Ready round it was stepped in. */
  private readonly incoming = new Map<string, { path: string; seq: number }>();
  /** When a message from each peer last arrived (see `lastHeardFrom`). */
  private readonly heardAt = new Map<NodeId, number>();
  private readonly readPrefix = randomBytes(8);
  private readSeq = 0;
  private readySeq = 0;
  private applied: number;
  private lastSnapshotIndex: number;
  private role: Role = 'follower';
  private leader: NodeId = '';
  private term = 0;
  private leaderReadyTerm = 0;
  private ticker: NodeJS.Timeout | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private closing = false;
  private loopDone: Promise<void> = Promise.resolve();
  private snapshotTask: Promise<void> | undefined;
  private counters = { snapshotsTaken: 0, snapshotsInstalled: 0, proposalsDropped: 0 };

  private constructor(
    options: RaftNodeOptions,
    parts: {
      core: RaftCore;
      logStore: LogStore;
      hardState: HardStateFile;
      snapshots: SnapshotFiles;
      book: AddressBook;
      applied: number;
      incomingDir: string;
    },
  ) {
    super();
    this.id = options.id;
    this.clusterId = options.clusterId;
    this.sm = options.stateMachine;
    this.log = options.log ?? stderrLogger;
    this.core = parts.core;
    this.logStore = parts.logStore;
    this.hardState = parts.hardState;
    this.snapshots = parts.snapshots;
    this.book = parts.book;
    this.applied = parts.applied;
    this.lastSnapshotIndex = parts.logStore.snapshotMeta().index;
    this.incomingDir = parts.incomingDir;
    this.tickMs = options.tickMs ?? NODE_DEFAULTS.tickMs;
    this.electionTicks = options.electionTicks ?? NODE_DEFAULTS.electionTicks;
    this.snapshotEveryEntries = options.snapshotEveryEntries ?? NODE_DEFAULTS.snapshotEveryEntries;
    this.snapshotKeepEntries = options.snapshotKeepEntries ?? NODE_DEFAULTS.snapshotKeepEntries;
    this.proposalTimeoutMs = options.proposalTimeoutMs ?? NODE_DEFAULTS.proposalTimeoutMs;
    this.readIndexTimeoutMs = options.readIndexTimeoutMs ?? NODE_DEFAULTS.readIndexTimeoutMs;
    this.membershipTimeoutMs = options.membershipTimeoutMs ?? NODE_DEFAULTS.membershipTimeoutMs;
    this.maxEntryBytes = options.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES;
    this.term = this.core.status().term;
    this.transport = new PeerTransport({
      ...options.transport,
      id: options.id,
      clusterId: options.clusterId,
      listenAddress: options.listenPeerAddress,
      incomingSnapshotDir: parts.incomingDir,
      handler: this,
      log: this.log,
    });
  }

  /**
   * Opens the node's storage (recovering from a crash), reconciles the state
   * machine with the log and snapshot, starts the peer server, the tick timer
   * and the Ready loop.
   */
  static async open(options: RaftNodeOptions): Promise<RaftNode> {
    const log = options.log ?? stderrLogger;
    mkdirSync(options.dataDir, { recursive: true });
    const maxEntryBytes = options.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES;
    const logStore = LogStore.open({
      dir: options.dataDir,
      maxEntryBytes,
      ...(options.logSegmentBytes !== undefined ? { segmentBytes: options.logSegmentBytes } : {}),
      ...(options.logCacheBytes !== undefined ? { cacheBytes: options.logCacheBytes } : {}),
      ...(options.onFsync ? { onFsync: options.onFsync } : {}),
    });
    const hardState = HardStateFile.open(options.dataDir);
    const snapshots = new SnapshotFiles(join(options.dataDir, 'snapshot'));
    const incomingDir = join(options.dataDir, 'snapshot-incoming');
    rmSync(incomingDir, { recursive: true, force: true });
    mkdirSync(incomingDir, { recursive: true });
    const book = new AddressBook(join(options.dataDir, 'members.json'));
    for (const [id, addresses] of Object.entries(options.initialMembers)) {
      if (!book.get(id)) book.set(id, addresses);
    }
    if (!options.join && !(options.id in options.initialMembers)) {
      throw new Error(
        `node ${options.id} is not in initialMembers (${Object.keys(options.initialMembers).join(', ')})`,
      );
    }
    const sm = options.stateMachine;

    // An interrupted snapshot install or record: the snapshot file is ahead of the log's meta.
    const latest = await snapshots.latest();
    if (latest && latest.meta.index > logStore.snapshotMeta().index) {
      if (logStore.term(latest.meta.index) === latest.meta.term) await logStore.recordSnapshot(latest.meta);
      else await logStore.installSnapshot(latest.meta);
    }
    let applied = sm.appliedIndex();
    const logMeta = logStore.snapshotMeta();
    if (applied < logMeta.index) {
      // The store is behind the snapshot the log starts from (a restore was interrupted).
      const reader = await snapshots.read();
      if (!reader || reader.meta.index < logMeta.index) {
        throw new Error(
          `state machine applied index ${applied} is behind the log's snapshot ${logMeta.index} and no snapshot file covers it`,
        );
      }
      const { header, rest } = await splitHeader(reader.chunks);
      for (const [id, a] of Object.entries(header.members)) book.set(id, a);
      applied = await sm.restore(rest);
      await sm.flush();
      log.warn(
        { id: options.id, applied },
        'raft: state machine restored from the snapshot file at start-up',
      );
    }
    if (applied > logStore.lastIndex()) {
      throw new Error(
        `state machine applied index ${applied} is beyond the log's last index ${logStore.lastIndex()}: the Raft log lost entries`,
      );
    }
    await book.save();
    const saved = hardState.get();
    const commit = Math.min(Math.max(saved.commit, applied), logStore.lastIndex());
    const core = new RaftCore({
      id: options.id,
      log: logStore,
      hardState: { ...saved, commit },
      applied,
      bootstrapVoters: options.join ? [] : Object.keys(options.initialMembers),
      electionTicks: options.electionTicks ?? NODE_DEFAULTS.electionTicks,
      heartbeatTicks: options.heartbeatTicks ?? NODE_DEFAULTS.heartbeatTicks,
      random: options.random ?? Math.random,
      ...(options.maxUncommittedBytes !== undefined
        ? { maxUncommittedBytes: options.maxUncommittedBytes }
        : {}),
      ...(options.maxMsgBytes !== undefined ? { maxMsgBytes: options.maxMsgBytes } : {}),
      ...(options.maxInflight !== undefined ? { maxInflight: options.maxInflight } : {}),
    });
    const node = new RaftNode(options, { core, logStore, hardState, snapshots, book, applied, incomingDir });
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
    this.ticker = setInterval(() => this.onTick(), this.tickMs);
    this.loopDone = this.runLoop();
  }

  // ---------------------------------------------------------------- client API

  /**
   * Proposes a command. Resolves with the state machine's result once the entry
   * is committed and applied on this node. Rejects with NodeNotLeaderError
   * (leader id and address when known), ProposalDroppedError, RaftLimitError /
   * LimitError, or NodeClosedError.
   *
   * `durability: 'leader'` (DESIGN.md DURABILITY_LEADER) resolves with
   * `undefined` as soon as the entry is fsynced in this leader's log: it may
   * still be lost if the leader fails before a majority has it.
   */
  propose(data: Uint8Array, options: { durability?: 'quorum' | 'leader' } = {}): Promise<unknown> {
    if (this.closing) return Promise.reject(new NodeClosedError(`raft node ${this.id} is closed`));
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
    return new Promise<number>((resolve, reject) => {
      this.reads.set(context.toString('hex'), {
        index: -1,
        deadline: Date.now() + this.readIndexTimeoutMs,
        resolve,
        reject,
      });
    });
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
    const deadline = Date.now() + this.membershipTimeoutMs;
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

  /** Removes a member (voter or learner). Leader only. */
  async removeMember(id: NodeId): Promise<readonly MemberStatus[]> {
    this.assertLeader();
    const conf = this.core.status().conf;
    if (conf.voters.includes(id) || conf.learners.includes(id)) {
      await this.changeMembership({ type: 'remove', node: id }, Date.now() + this.membershipTimeoutMs);
    }
    return this.status().members;
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
      throw new Error(`cannot transfer leadership to ${target}: not a voter`);
    this.core.transferLeadership(target);
    this.wake();
    const goal = target;
    await this.until(
      Date.now() + this.electionTicks * this.tickMs * 3,
      `leadership to move to ${goal}`,
      () => {
        const leader = this.core.status().leader;
        return leader === goal;
      },
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
      else if (progress && !progress.recentActive) role = 'unreachable';
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
        proposalsDropped: this.counters.proposalsDropped,
      },
    };
  }

  /** The client address of a member, if known. */
  memberAddresses(id: NodeId): MemberAddresses | undefined {
    return this.book.get(id);
  }

  isLeader(): boolean {
    return this.role === 'leader';
  }

  /**
   * Stops the timer, the loop and the transport, rejects everything pending
   * and closes the log. The state machine is the caller's to close (after this).
   */
  async close(): Promise<void> {
    if (this.closing) return this.loopDone;
    this.closing = true;
    if (this.ticker) clearInterval(this.ticker);
    this.wake();
    await this.loopDone.catch(() => undefined);
    this.failAll('closed', `raft node ${this.id} closed`);
    await this.transport.close();
    await this.snapshotTask?.catch(() => undefined);
    await this.logStore.close();
  }

  /** When a message from `id` last arrived here, on the monotonic clock (`performance.now()`); undefined if none did. */
  lastHeardFrom(id: NodeId): number | undefined {
    return this.heardAt.get(id);
  }

  // ---------------------------------------------------------------- transport handler

  receive(messages: Message[]): void {
    if (this.closing) return;
    const now = performance.now();
    for (const m of messages) {
      this.heardAt.set(m.from, now);
      try {
        this.core.step(m);
      } catch (error) {
        // A broken invariant or a storage read error: the core may be half-way through a step.
        this.fatal(error instanceof Error ? error : new Error(String(error)));
        return;
      }
    }
    this.wake();
  }

  async receiveSnapshot(message: Message, dataFile: string): Promise<void> {
    const meta = message.snapshot;
    if (this.closing || !meta) {
      rmSync(dataFile, { force: true });
      throw new NodeClosedError('node closing');
    }
    const key = `${meta.index}:${meta.term}`;
    const old = this.incoming.get(key);
    if (old && old.path !== dataFile) rmSync(old.path, { force: true });
    this.incoming.set(key, { path: dataFile, seq: this.readySeq });
    this.receive([message]);
  }

  /**
   * Who may send to this node: members of its configuration. Refused: members
   * whose removal it applied. A sender it does not know at all is admitted
   * only while this node knows no configuration (it is joining), or when
   * every message is one only a leader sends (append, heartbeat, snapshot)
   * at a term not below ours: a node that was down while a member was added
   * learns of that member from its log, which may come from that very member.
   */
  isMember(id: NodeId, messages: readonly Message[] = []): boolean {
    const s = this.core.status();
    if (s.conf.voters.includes(id) || s.conf.learners.includes(id)) return true;
    if (this.book.isRemoved(id)) return false;
    if (s.conf.voters.length === 0 && s.conf.learners.length === 0) return true;
    return (
      messages.length > 0 &&
      messages.every(
        (m) => (m.type === 'append' || m.type === 'heartbeat' || m.type === 'snapshot') && m.term >= s.term,
      )
    );
  }

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
    this.core.tick();
    this.expire(Date.now());
    this.wake();
  }

  /**
   * The apply of the previous Ready's committed entries. It runs while the
   * next Ready is persisted and sent (CPU next to fdatasync and the network),
   * and is awaited before the next apply starts, so entries apply one batch at
   * a time, in order, with at most one batch behind the log.
   */
  private applying: Promise<void> = Promise.resolve();

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
      await this.applying;
      await this.installSnapshot(rd.snapshot);
    }
    if (rd.entries.length > 0) {
      this.dropOverwritten(rd.entries);
      this.learnAddresses(rd.entries);
    }
    // Persistence contract (docs/design.md): the log first, then the hard state it depends on.
    if (rd.entries.length > 0) {
      this.assertNoIdenticalRewrite(rd.entries);
      await this.logStore.append(rd.entries, { commit: this.hardState.get().commit });
    }
    const hs = rd.hardState;
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
      await this.hardState.save(hs);
    }
    if (hs) {
      const saved = this.hardState.get();
      invariant(
        saved.term === hs.term && saved.vote === hs.vote && saved.commit >= confIndex,
        'term, vote and the commit of the configuration in effect are durable before persisted messages leave',
        () => ({ id: this.id, saved, ready: hs, confIndex }),
      );
    }
    if (rd.entries.length > 0 && this.pending.size > 0) this.resolveDurable(rd.entries);
    this.send(rd.persistedMessages);
    if (rd.committedEntries.length > 0) {
      await this.applying;
      const entries = rd.committedEntries;
      this.applying = this.apply(entries).catch((error: unknown) => {
        this.fatal(error instanceof Error ? error : new Error(String(error)));
      });
    }
    for (const rs of rd.readStates) {
      const read = this.reads.get(Buffer.from(rs.context).toString('hex'));
      if (read) read.index = rs.index;
    }
  }

  private afterAdvance(): void {
    this.resolveReads();
    // Snapshot data stepped before this Ready was taken and not installed by it: the core declined it.
    for (const [k, { path, seq }] of this.incoming) {
      if (seq < this.readySeq) {
        rmSync(path, { force: true });
        this.incoming.delete(k);
      }
    }
    if (
      !this.snapshotTask &&
      !this.closing &&
      this.applied - this.lastSnapshotIndex >= this.snapshotEveryEntries
    ) {
      this.snapshotTask = this.takeSnapshot()
        .catch((error: unknown) => {
          this.log.error({ id: this.id, err: String(error) }, 'raft: taking a snapshot failed');
        })
        .finally(() => {
          this.snapshotTask = undefined;
        });
    }
  }

  private send(messages: readonly Message[]): void {
    if (messages.length === 0) return;
    let plain: Message[] | undefined;
    for (const m of messages) {
      if (m.type === 'snapshot') this.sendSnapshot(m);
      else (plain ??= []).push(m);
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
    const results = await this.sm.apply(entries);
    if (results.length !== entries.length) {
      throw new RaftInvariantError('state machine returns one result per entry', {
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
        this.book.setRemoved(change.node, change.type === 'remove');
      }
      const p = this.pending.get(e.index);
      if (p) {
        this.pending.delete(e.index);
        if (p.term === e.term) p.resolve(results[i]);
        else
          this.drop(
            p,
            'overwritten',
            true,
            `entry ${e.index} was replaced by term ${e.term} (proposed in ${p.term})`,
          );
      }
    });
    const last = entries.at(-1) as Entry;
    this.applied = last.index;
    if (membershipChanged) {
      await this.book.save();
      this.syncPeers();
    }
    this.emit('applied', { index: this.applied });
    this.resolveReads();
    if (this.role === 'leader' && last.term === this.term && this.leaderReadyTerm !== this.term) {
      this.leaderReadyTerm = this.term;
      this.emit('became-leader', { term: this.term });
    }
  }

  private async installSnapshot(meta: SnapshotMeta): Promise<void> {
    await this.snapshotTask?.catch(() => undefined);
    const key = `${meta.index}:${meta.term}`;
    const file = this.incoming.get(key)?.path;
    if (!file) {
      throw new RaftInvariantError('a snapshot the core accepted has its data here', {
        index: meta.index,
        term: meta.term,
      });
    }
    // Durable first (the file survives a crash and start-up finishes the install), then the state machine, then the log.
    await this.snapshots.write(meta, createReadStream(file) as AsyncIterable<Uint8Array>);
    const reader = await this.snapshots.read();
    if (!reader) throw new Error('snapshot file vanished after it was written');
    const { header, rest } = await splitHeader(reader.chunks);
    for (const [id, a] of Object.entries(header.members)) this.book.set(id, a);
    await this.book.save();
    const restored = await this.sm.restore(rest);
    if (restored !== meta.index) {
      throw new RaftInvariantError('restored state machine is at the snapshot index', {
        restored,
        index: meta.index,
      });
    }
    await this.sm.flush();
    await this.logStore.installSnapshot(meta);
    for (const [k, { path }] of this.incoming) {
      const index = Number(k.split(':')[0]);
      if (index <= meta.index) {
        rmSync(path, { force: true });
        this.incoming.delete(k);
      }
    }
    this.applied = meta.index;
    this.lastSnapshotIndex = meta.index;
    this.counters.snapshotsInstalled++;
    for (const p of [...this.pending.values()]) {
      if (p.index <= meta.index) {
        this.pending.delete(p.index);
        this.drop(
          p,
          'snapshot',
          false,
          `a snapshot at ${meta.index} replaced the log before entry ${p.index} was seen applied`,
        );
      }
    }
    this.syncPeers();
    this.log.info({ id: this.id, index: meta.index, term: meta.term }, 'raft: snapshot installed');
    this.emit('snapshot', { kind: 'installed', meta });
  }

  /** Snapshot policy: every N applied entries; compact to M entries behind what the store has durably recorded. */
  private async takeSnapshot(): Promise<void> {
    const { index, chunks } = await this.sm.snapshot();
    if (index <= this.logStore.snapshotMeta().index || this.logStore.term(index) === undefined) {
      // A snapshot installed meanwhile is newer; consume nothing more.
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
    // DESIGN.md compaction rule: never past what the store has durably recorded.
    const flushed = await this.sm.flush();
    const compactTo = Math.min(flushed, this.logStore.snapshotMeta().index) - this.snapshotKeepEntries;
    if (compactTo >= this.logStore.firstIndex()) await this.logStore.compact(compactTo);
  }

  // ---------------------------------------------------------------- proposals and reads

  private track(at: { index: number; term: number }, leaderLogOnly = false): Promise<unknown> {
    this.wake();
    const stale = this.pending.get(at.index);
    if (stale) {
      // The core reused the index: the older entry there is gone.
      this.pending.delete(at.index);
      this.drop(
        stale,
        'overwritten',
        true,
        `entry ${at.index} of term ${stale.term} was replaced in term ${at.term}`,
      );
    }
    return new Promise((resolve, reject) => {
      this.pending.set(at.index, {
        index: at.index,
        term: at.term,
        seq: this.readySeq,
        leaderLogOnly,
        deadline: Date.now() + this.proposalTimeoutMs,
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
  private dropOverwritten(entries: readonly Entry[]): void {
    if (this.pending.size === 0) return;
    const first = (entries[0] as Entry).index;
    for (const p of [...this.pending.values()]) {
      if (p.index < first || p.seq >= this.readySeq) continue;
      const e = entries[p.index - first];
      if (e && e.term === p.term) continue;
      this.pending.delete(p.index);
      this.drop(p, 'overwritten', true, `entry ${p.index} of term ${p.term} was overwritten by a new leader`);
    }
  }

  /**
   * A Ready never hands out an entry the store already holds with the same
   * index and term: rewriting it would truncate durable, acknowledged entries
   * first (a crash in between loses them).
   */
  private assertNoIdenticalRewrite(entries: readonly Entry[]): void {
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

  /** Proposals made with durability 'leader' are done once their entry is in the durable log. */
  private resolveDurable(entries: readonly Entry[]): void {
    for (const e of entries) {
      const p = this.pending.get(e.index);
      if (p?.leaderLogOnly && p.term === e.term) {
        this.pending.delete(e.index);
        p.resolve(undefined);
      }
    }
  }

  private drop(
    p: PendingProposal,
    reason: ProposalDroppedError['reason'],
    definite: boolean,
    why: string,
  ): void {
    this.counters.proposalsDropped++;
    p.reject(new ProposalDroppedError(reason, definite, p.index, p.term, `proposal dropped: ${why}`));
  }

  private resolveReads(): void {
    for (const [key, r] of this.reads) {
      if (r.index >= 0 && r.index <= this.applied) {
        this.reads.delete(key);
        r.resolve(r.index);
      }
    }
  }

  private expire(now: number): void {
    for (const p of this.pending.values()) {
      if (p.deadline > now) continue;
      this.pending.delete(p.index);
      this.drop(p, 'timeout', false, `no outcome for entry ${p.index} within the proposal timeout`);
    }
    for (const [key, r] of this.reads) {
      if (r.deadline > now) continue;
      this.reads.delete(key);
      r.reject(this.notLeader(`read index not confirmed within ${this.readIndexTimeoutMs} ms`));
    }
  }

  private failAll(reason: 'closed' | 'leadership-lost', why: string): void {
    for (const p of this.pending.values()) this.drop(p, reason, false, why);
    this.pending.clear();
    for (const r of this.reads.values()) r.reject(new NodeClosedError(why));
    this.reads.clear();
  }

  private onSoftState(role: Role, leader: NodeId): void {
    const wasLeader = this.role === 'leader';
    const leaderChanged = leader !== this.leader;
    this.role = role;
    this.leader = leader;
    const term = this.core.status().term;
    if (wasLeader && role !== 'leader') {
      // Our proposals may still commit under the next leader; wait a little for their fate, not forever.
      const grace = Date.now() + 2 * this.electionTicks * this.tickMs;
      for (const p of this.pending.values()) p.deadline = Math.min(p.deadline, grace);
      this.emit('lost-leadership', { term, leader });
    }
    if (leaderChanged) {
      // Reads waiting for a confirmation from a leader that is gone will not get it.
      for (const [key, r] of this.reads) {
        if (r.index >= 0) continue;
        this.reads.delete(key);
        r.reject(this.notLeader('leader changed before the read was confirmed'));
      }
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
    if (changed) void this.book.save().catch(() => undefined);
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
        if (!(error instanceof ConfChangeInProgressError) || Date.now() > deadline)
          throw this.translate(error);
      }
      await new Promise((r) => setTimeout(r, this.tickMs));
      this.assertLeader();
    }
  }

  private async until(deadline: number, what: string, done: () => boolean): Promise<void> {
    while (!done()) {
      if (this.closing) throw new NodeClosedError(`raft node ${this.id} closed while waiting for ${what}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, this.tickMs));
    }
  }

  private assertLeader(): void {
    if (this.closing) throw new NodeClosedError(`raft node ${this.id} is closed`);
    if (this.core.status().role !== 'leader') throw this.notLeader();
  }

  private notLeader(message?: string): NodeNotLeaderError {
    const leader = this.core.status().leader;
    const a = leader ? this.book.get(leader) : undefined;
    return new NodeNotLeaderError(
      leader === this.id ? '' : leader,
      a?.clientAddress ?? '',
      a?.peerAddress ?? '',
      message,
    );
  }

  private translate(error: unknown): Error {
    if (error instanceof NotLeaderError && !(error instanceof NodeNotLeaderError)) {
      const a = error.leader ? this.book.get(error.leader) : undefined;
      return new NodeNotLeaderError(
        error.leader,
        a?.clientAddress ?? '',
        a?.peerAddress ?? '',
        error.message,
      );
    }
    return error instanceof Error ? error : new Error(String(error));
  }

  private fatal(error: Error): void {
    if (this.closing) return;
    this.log.error({ id: this.id, err: error.stack ?? String(error) }, 'raft: fatal error, node stops');
    void this.close();
    if (this.listenerCount('fatal') > 0) this.emit('fatal', error);
  }
}
