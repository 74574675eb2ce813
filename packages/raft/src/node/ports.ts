/**
 * The node driver's ports: everything RaftNode does to a disk, a network, a
 * clock or a source of randomness goes through these. The shipped
 * implementations are in file-ports.ts (LogStore, HardStateFile,
 * SnapshotFiles, PeerTransport, @fermata/base's systemClock); the simulator (src/sim) provides
 * simulated ones and drives the same RaftNode.
 */
import type { Clock } from '@fermata/base';
import type { RaftCore, RaftCoreOptions } from '../core/raft-core.js';
import type { SnapshotInfo, SnapshotReader } from '../log/snapshot-store.js';
import type { PeerRefusal, TransportHandler } from '../transport/peer-transport.js';
import type { Entry, HardState, LogReader, Message, NodeId, SnapshotMeta } from '../types.js';

/** The Raft log (LogStore): synchronous reads of the current view, changes durable when their promise resolves. */
export interface LogStorage extends LogReader {
  /** Truncates from entries[0].index if it is <= lastIndex, then appends; `commit` guards the truncation. */
  append(entries: readonly Entry[], options?: { commit?: number }): Promise<void>;
  /** A snapshot taken locally at meta.index (the log keeps its entries). */
  recordSnapshot(meta: SnapshotMeta): Promise<void>;
  /** Drops entries <= index (or fewer: whole segments), never past the recorded snapshot. */
  compact(index: number): Promise<void>;
  /** Replaces the whole log by a received snapshot. */
  installSnapshot(meta: SnapshotMeta): Promise<void>;
  /** Resolves once every change made so far is durable: writes refused for room are made again. */
  sync(): Promise<void>;
  close(): Promise<void>;
  readonly fsyncs: number;
  readonly entriesSynced: number;
}

/** The hard state (HardStateFile): replaced atomically, durable when `save` resolves. */
export interface StableStorage {
  get(): HardState;
  save(state: HardState): Promise<void>;
}

/** The latest snapshot file (SnapshotFiles): written atomically, never replaced by an older one. */
export interface SnapshotStorage {
  latest(): Promise<SnapshotInfo | undefined>;
  read(options?: { verifyFirst?: boolean }): Promise<SnapshotReader | undefined>;
  write(meta: SnapshotMeta, chunks: AsyncIterable<Uint8Array>): Promise<SnapshotInfo>;
}

/** Snapshot data the transport received, by the reference it handed to `receiveSnapshot`. */
export interface IncomingSnapshots {
  /** At start-up: whatever a previous run received is gone. */
  reset(): void;
  open(ref: string): AsyncIterable<Uint8Array>;
  discard(ref: string): void;
}

/** A small file replaced atomically (the address book). */
export interface SmallFile {
  read(): Uint8Array | undefined;
  write(bytes: Uint8Array): Promise<void>;
}

/** The peer network (PeerTransport). */
export interface Transport {
  readonly address: string;
  start(): Promise<unknown>;
  close(): Promise<void>;
  send(messages: readonly Message[]): void;
  /** False when it is not sent (one snapshot per peer at a time); the caller then releases the data. */
  sendSnapshot(message: Message, chunks: () => Promise<AsyncIterable<Uint8Array>>): boolean;
  setPeer(id: NodeId, address: string): void;
  removePeer(id: NodeId): void;
  readonly stats: {
    readonly peers: Readonly<Record<NodeId, unknown>>;
    readonly snapshotsSent: number;
    /** Peer streams and batches refused, by reason. */
    readonly refused: Readonly<Record<PeerRefusal, number>>;
  };
}

export interface NodePorts {
  readonly log: LogStorage;
  readonly stable: StableStorage;
  readonly snapshots: SnapshotStorage;
  readonly incoming: IncomingSnapshots;
  readonly addressBook: SmallFile;
  readonly clock: Clock;
  /** Uniform in [0, 1): election timeouts and read contexts. */
  readonly random: () => number;
  readonly transport: (handler: TransportHandler) => Transport;
  /** The simulator passes a core its checker can read (or one with an injected bug). */
  readonly makeCore?: (options: RaftCoreOptions) => RaftCore;
}
