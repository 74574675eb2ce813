import type { Clock } from '@fermata/base';
import type { FsyncSample } from '../log/group-writer.js';
import type { Logger } from '../transport/logger.js';
import type { PeerRefusal, PeerTransportOptions } from '../transport/peer-transport.js';
import type { NodeId, Role, SnapshotMeta, StateMachine } from '../types.js';
import type { DiskFull, DiskName } from './errors.js';
import type { MemberAddresses } from './members.js';
import type { ClockRefusals } from './vote-clock.js';

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
  /**
   * Well above what clocks kept by NTP drift apart (milliseconds; chrony rejects a
   * source whose error bound exceeds 3 s) plus a vote's transit and event-loop stalls (hundreds
   * of ms on a busy node), well below the steps it keeps from leading (minutes to
   * hours: a VM restored from a snapshot, a boot before time sync, a wrong zone).
   */
  maxClockOffsetMs: 5_000,
} as const;

/** What the driver needs whatever its ports are (see ports.ts). */
export interface RaftDriverOptions {
  readonly id: NodeId;
  /** Every peer batch carries it; a peer of another cluster is turned away. */
  readonly clusterId: string;
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
  readonly maxUncommittedBytes?: number;
  readonly maxMsgBytes?: number;
  readonly maxInflight?: number;
  /**
   * The time this node stamps commands with as leader (the broker's SteadyClock).
   * Given, every vote and pre-vote request carries it, and a request whose stamp
   * is more than `maxClockOffsetMs` from it is refused (vote-clock.ts). Absent
   * (the simulator): nothing is stamped or checked.
   */
  readonly wallClock?: Pick<Clock, 'nowMs'>;
  /** Most a candidate's wall clock may differ from this node's for its vote; 0 = not checked. */
  readonly maxClockOffsetMs?: number;
  readonly log?: Logger;
}

/** A node on files and gRPC (RaftNode.open). */
export interface RaftNodeOptions extends RaftDriverOptions {
  /** Log segments, hard state, snapshot, address book. */
  readonly dataDir: string;
  /** host:port the Raft peer server listens on (port 0 picks one: see `peerAddress`). */
  readonly listenPeerAddress: string;
  /** Log segment size; compaction deletes whole segments only (log store default 64 MiB). */
  readonly logSegmentBytes?: number;
  /** Bytes of recent log entries kept in memory for followers' appends (log store default 16 MiB). */
  readonly logCacheBytes?: number;
  /** Called after every synchronous write (or fdatasync) of the log (duration, entries, bytes): for metrics. */
  readonly onFsync?: (sample: FsyncSample) => void;
  /** The only randomness of the node (election timeouts, read contexts). Default Math.random. */
  readonly random?: () => number;
  readonly transport?: Partial<
    Omit<
      PeerTransportOptions,
      | 'id'
      | 'clusterId'
      | 'listenAddress'
      | 'advertiseAddress'
      | 'incomingSnapshotDir'
      | 'handler'
      | 'log'
      | 'wallClock'
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
    /** Peer streams and batches the transport refused, by reason (peer-transport.ts). */
    readonly peerRefused: Readonly<Record<PeerRefusal, number>>;
    /** Vote and pre-vote requests refused for the candidate's clock (vote-clock.ts). */
    readonly clockRefusals: ClockRefusals;
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
  /** A write found its disk full: the node refuses proposals and makes the write again until it has room. */
  'disk-full': [DiskFull];
  /** A write to that disk succeeded again: the node goes on. */
  'disk-has-room': [{ disk: DiskName }];
  /** An unrecoverable error (disk failure, broken invariant): the node has stopped. */
  fatal: [Error];
}
