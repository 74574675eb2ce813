/**
 * The Raft peer transport over gRPC: one outgoing stream per peer for message
 * batches, snapshot streams, and the server side that authenticates each call
 * (cluster secret, peer certificate, cluster id, member identity) before any
 * message reaches the node. Over ~400 lines because the client and server
 * halves share the refusal accounting and the stream lifecycle; framing is in
 * codec.ts and peer-stream.ts, snapshots in snapshot-sender/receiver.ts.
 */

import type { Clock } from '@fermata/base';
import {
  clientFlowControlOptions,
  Long,
  type pb,
  type RaftClient,
  type RaftHandlers,
  RaftService,
  widenServerFlowControl,
} from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import type { Message, NodeId } from '../types.js';
import type { Admission, RefusalReason, SenderIdentity } from './admission.js';
import { MalformedMessageError, messageFromWire } from './codec.js';
import { PeerConfigError } from './errors.js';
import { type Logger, stderrLogger } from './logger.js';
import { PeerSecretCheck, peerSecretInterceptor } from './peer-secret.js';
import { PeerStream, type PeerStreamStats } from './peer-stream.js';
import { SnapshotReceiver, SnapshotTransferError } from './snapshot-receiver.js';
import { sendSnapshot } from './snapshot-sender.js';
import type { PeerAuthContext, PeerTls } from './tls.js';

/** What the transport hands to (and asks of) the node driver. */
export interface TransportHandler {
  /** Messages from a peer that passed the authentication, cluster and admission checks. */
  receive(messages: Message[]): void;
  /**
   * A complete, verified snapshot: its `snapshot` message and a file holding
   * the data. The file now belongs to the handler. Resolving means Raft was
   * given the snapshot; the sender is then told OK.
   */
  receiveSnapshot(message: Message, dataFile: string): Promise<void>;
  /**
   * Whether `id` (already authenticated as far as the transport can) may hand
   * these decoded messages to Raft: members only, terms bounded (peer-admission.ts).
   */
  admit(id: NodeId, messages: readonly Message[], identity: SenderIdentity): Admission;
  reportUnreachable(id: NodeId): void;
  reportSnapshot(id: NodeId, ok: boolean): void;
}

export interface PeerTransportOptions {
  readonly id: NodeId;
  readonly clusterId: string;
  /** host:port to listen on for peers (port 0 picks one). */
  readonly listenAddress: string;
  /**
   * host:port the other nodes reach this one at, sent with every batch
   * (`from_address`) so a node with no address for us can answer.
   */
  readonly advertiseAddress?: string;
  /** Directory for snapshots being received. */
  readonly incomingSnapshotDir: string;
  readonly handler: TransportHandler;
  readonly log?: Logger;
  readonly maxQueuedMessagesPerPeer?: number;
  readonly maxBatchBytes?: number;
  readonly minBackoffMs?: number;
  readonly maxBackoffMs?: number;
  readonly snapshotChunkBytes?: number;
  readonly maxSnapshotBytes?: number;
  /** Largest gRPC message accepted from a peer. */
  readonly maxReceiveMessageBytes?: number;
  /** Mutual TLS between peers (each end verifies the other's certificate and identity); plaintext when absent. */
  readonly tls?: PeerTls;
  /**
   * The cluster secret (peer-secret.ts): sent with every call and required of
   * every caller. Without it (and without TLS) anyone who reaches the port can
   * write as any member.
   */
  readonly secret?: string;
  /**
   * This node's wall clock: a message the driver stamped with it (`wallTimeMs`:
   * vote requests, refusals for the clock) is stamped again as it is written,
   * so time spent queued for a peer that was down does not read as clock offset.
   */
  readonly wallClock?: Pick<Clock, 'nowMs'>;
}

export const TRANSPORT_DEFAULTS = {
  maxQueuedMessagesPerPeer: 4096,
  maxBatchBytes: 1024 * 1024,
  minBackoffMs: 50,
  maxBackoffMs: 2000,
  snapshotChunkBytes: 256 * 1024,
  maxSnapshotBytes: 64 * 1024 * 1024 * 1024,
  maxReceiveMessageBytes: 64 * 1024 * 1024,
} as const;

export interface TransportStats {
  peers: Record<NodeId, PeerStreamStats & { address: string }>;
  batchesReceived: number;
  messagesReceived: number;
  batchesRejected: number;
  /** Streams and batches refused, by why: for the `fermata_raft_peer_refused_total` metric. */
  refused: Record<PeerRefusal, number>;
  snapshotsSent: number;
  snapshotsSendFailed: number;
  snapshotsReceived: number;
  snapshotsReceiveFailed: number;
}

/** Why the transport refused a peer stream or batch. */
export type PeerRefusal = 'unauthenticated' | 'wrong-cluster' | RefusalReason;

/** Longest `from_address` taken from a batch (a host name of 253 characters, a colon and a port). */
export const MAX_PEER_ADDRESS_CHARS = 260;

const RaftClientCtor = grpc.makeGenericClientConstructor(
  RaftService as unknown as grpc.ServiceDefinition,
  'fermata.v1.Raft',
);

/**
 * gRPC transport between Raft peers (`fermata.v1.Raft`): a server for the
 * peer port, one `PeerStream` per peer for messages, and one stream per
 * snapshot transfer.
 */
export class PeerTransport {
  readonly stats: TransportStats = {
    peers: {},
    batchesReceived: 0,
    messagesReceived: 0,
    batchesRejected: 0,
    refused: { unauthenticated: 0, 'wrong-cluster': 0, 'not-member': 0, 'term-bound': 0 },
    snapshotsSent: 0,
    snapshotsSendFailed: 0,
    snapshotsReceived: 0,
    snapshotsReceiveFailed: 0,
  };
  private readonly server: grpc.Server;
  private readonly peers = new Map<NodeId, PeerStream>();
  private readonly snapshotsInFlight = new Set<NodeId>();
  private readonly log: Logger;
  private readonly limits: Required<
    Omit<
      PeerTransportOptions,
      | 'id'
      | 'clusterId'
      | 'listenAddress'
      | 'advertiseAddress'
      | 'incomingSnapshotDir'
      | 'handler'
      | 'log'
      | 'tls'
      | 'secret'
      | 'wallClock'
    >
  >;
  private readonly secretCheck: PeerSecretCheck | undefined;
  private boundAddress = '';
  private closed = false;

  constructor(private readonly options: PeerTransportOptions) {
    this.log = options.log ?? stderrLogger;
    this.secretCheck = options.secret === undefined ? undefined : new PeerSecretCheck(options.secret);
    this.limits = {
      maxQueuedMessagesPerPeer:
        options.maxQueuedMessagesPerPeer ?? TRANSPORT_DEFAULTS.maxQueuedMessagesPerPeer,
      maxBatchBytes: options.maxBatchBytes ?? TRANSPORT_DEFAULTS.maxBatchBytes,
      minBackoffMs: options.minBackoffMs ?? TRANSPORT_DEFAULTS.minBackoffMs,
      maxBackoffMs: options.maxBackoffMs ?? TRANSPORT_DEFAULTS.maxBackoffMs,
      snapshotChunkBytes: options.snapshotChunkBytes ?? TRANSPORT_DEFAULTS.snapshotChunkBytes,
      maxSnapshotBytes: options.maxSnapshotBytes ?? TRANSPORT_DEFAULTS.maxSnapshotBytes,
      maxReceiveMessageBytes: options.maxReceiveMessageBytes ?? TRANSPORT_DEFAULTS.maxReceiveMessageBytes,
    };
    this.server = new grpc.Server({
      'grpc.max_receive_message_length': this.limits.maxReceiveMessageBytes,
      'grpc.keepalive_permit_without_calls': 1,
      'grpc.http2.min_ping_interval_without_data_ms': 5000,
    });
    const handlers: RaftHandlers = {
      sendMessages: (call, callback) => this.onMessageStream(call, callback),
      installSnapshot: (call, callback) => this.onSnapshotStream(call, callback),
    };
    this.server.addService(RaftService as unknown as grpc.ServiceDefinition, handlers);
  }

  /** Starts listening; resolves with the bound host:port. */
  async start(): Promise<string> {
    const [host] = splitHostPort(this.options.listenAddress);
    const port = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync(
        this.options.listenAddress,
        this.options.tls?.serverCredentials() ?? grpc.ServerCredentials.createInsecure(),
        (error, p) => (error ? reject(error) : resolve(p)),
      ),
    );
    widenServerFlowControl(this.server);
    this.boundAddress = `${host}:${port}`;
    return this.boundAddress;
  }

  get address(): string {
    return this.boundAddress;
  }

  /** Adds a peer or moves it to a new address. */
  setPeer(id: NodeId, address: string): void {
    if (this.closed || id === this.options.id) return;
    const existing = this.peers.get(id);
    if (existing?.address === address) return;
    existing?.close();
    const credentials =
      this.options.tls?.channelCredentials({ id, address }) ?? grpc.credentials.createInsecure();
    const client = new RaftClientCtor(address, credentials, {
      'grpc.max_send_message_length': this.limits.maxReceiveMessageBytes,
      'grpc.keepalive_time_ms': 10_000,
      'grpc.keepalive_timeout_ms': 5_000,
      'grpc.keepalive_permit_without_calls': 1,
      'grpc.initial_reconnect_backoff_ms': this.limits.minBackoffMs * 2,
      'grpc.max_reconnect_backoff_ms': this.limits.maxBackoffMs,
      ...clientFlowControlOptions,
      ...(this.options.secret === undefined
        ? {}
        : { interceptors: [peerSecretInterceptor(this.options.secret)] }),
    }) as unknown as RaftClient;
    const wallClock = this.options.wallClock;
    const stream = new PeerStream(
      id,
      address,
      client,
      {
        id: this.options.id,
        clusterId: this.options.clusterId,
        ...(this.options.advertiseAddress ? { address: this.options.advertiseAddress } : {}),
        ...(wallClock ? { wallNowMs: () => wallClock.nowMs() } : {}),
      },
      {
        maxQueuedMessages: this.limits.maxQueuedMessagesPerPeer,
        maxBatchBytes: this.limits.maxBatchBytes,
        minBackoffMs: this.limits.minBackoffMs,
        maxBackoffMs: this.limits.maxBackoffMs,
      },
      (peer) => this.options.handler.reportUnreachable(peer),
      this.log,
    );
    this.peers.set(id, stream);
    this.stats.peers[id] = Object.assign(stream.stats, { address });
  }

  removePeer(id: NodeId): void {
    this.peers.get(id)?.close();
    this.peers.delete(id);
    delete this.stats.peers[id];
  }

  peerAddress(id: NodeId): string | undefined {
    return this.peers.get(id)?.address;
  }

  /** Queues messages for their peers; never blocks. Messages to unknown peers are dropped and reported unreachable. */
  send(messages: readonly Message[]): void {
    for (const m of messages) {
      const stream = this.peers.get(m.to);
      if (!stream) {
        this.options.handler.reportUnreachable(m.to);
        continue;
      }
      stream.enqueue(m);
    }
  }

  /**
   * Streams a snapshot to `message.to` and reports the outcome with
   * `reportSnapshot`. At most one transfer per peer at a time; a second
   * request while one runs is ignored (the core waits for the report).
   * Returns whether the transfer started (if not, `chunks` is never called).
   */
  sendSnapshot(message: Message, chunks: () => Promise<AsyncIterable<Uint8Array>>): boolean {
    const to = message.to;
    const stream = this.peers.get(to);
    if (!stream || this.snapshotsInFlight.has(to) || this.closed) {
      if (!stream) this.options.handler.reportSnapshot(to, false);
      return false;
    }
    this.snapshotsInFlight.add(to);
    const client = stream.client;
    void (async () => {
      let ok = false;
      try {
        const bytes = await sendSnapshot(
          client,
          { id: this.options.id, clusterId: this.options.clusterId },
          message,
          await chunks(),
          this.limits.snapshotChunkBytes,
        );
        ok = true;
        this.stats.snapshotsSent++;
        this.log.info({ peer: to, index: message.snapshot?.index, bytes }, 'raft snapshot sent');
      } catch (error) {
        this.stats.snapshotsSendFailed++;
        this.log.warn(
          { peer: to, index: message.snapshot?.index, err: String(error) },
          'raft snapshot send failed',
        );
      } finally {
        this.snapshotsInFlight.delete(to);
        if (!this.closed) this.options.handler.reportSnapshot(to, ok);
      }
    })();
    return true;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const stream of this.peers.values()) stream.close();
    this.peers.clear();
    // Peers tolerate a dropped stream; waiting for them to hang up would only delay shutdown.
    this.server.forceShutdown();
  }

  /** With a cluster secret: the call's metadata must carry it. */
  private admitSecret(call: { metadata: grpc.Metadata }): grpc.StatusObject | undefined {
    const problem = this.secretCheck?.problem(call.metadata);
    if (problem === undefined) return undefined;
    return { code: grpc.status.UNAUTHENTICATED, details: problem, metadata: new grpc.Metadata() };
  }

  private admitCluster(clusterId: string): grpc.StatusObject | undefined {
    if (clusterId === this.options.clusterId) return undefined;
    return {
      code: grpc.status.PERMISSION_DENIED,
      details: `cluster id "${clusterId}" is not this cluster ("${this.options.clusterId}")`,
      metadata: new grpc.Metadata(),
    };
  }

  /** With peer TLS: the caller's certificate must name the node it writes as `from`. */
  private admitIdentity(
    call: { getAuthContext(): PeerAuthContext | null },
    from: NodeId,
  ): grpc.StatusObject | undefined {
    const tls = this.options.tls;
    if (!tls) return undefined;
    const address = this.peers.get(from)?.address;
    const problem = tls.checkCaller(call, address === undefined ? { id: from } : { id: from, address });
    if (problem === undefined) return undefined;
    return { code: grpc.status.PERMISSION_DENIED, details: problem, metadata: new grpc.Metadata() };
  }

  /**
   * An admitted sender we hold no connection to (a leader added by an entry
   * this node has not received, so neither its configuration nor its book
   * names it) is answered at the address its batch carries. With peer TLS the
   * new connection checks that the certificate there names the sender, so a
   * wrong address gets no answers; the driver replaces or drops the peer when
   * its configuration changes.
   */
  private answerAt(from: NodeId, address: string | null | undefined): void {
    if (this.peers.has(from) || !address || address.length > MAX_PEER_ADDRESS_CHARS) return;
    this.log.info(
      { peer: from, address },
      'raft peer added from its batch: answering a sender this node has no address for',
    );
    this.setPeer(from, address);
  }

  /**
   * What admitSecret and admitIdentity, which ran first, proved about every
   * sender on this transport: with peer TLS that proves identity, `from` is who
   * sent the batch; with other peer TLS or the cluster secret, the sender holds
   * the cluster's credentials; in plaintext, nothing.
   */
  private senderIdentity(): SenderIdentity {
    if (this.options.tls?.provesPeerIdentity) return 'verified';
    if (this.options.tls || this.secretCheck) return 'authenticated';
    return 'claimed';
  }

  private admitMember(
    from: NodeId,
    messages: readonly Message[],
  ): (grpc.StatusObject & { reason: RefusalReason }) | undefined {
    const verdict = this.options.handler.admit(from, messages, this.senderIdentity());
    if (verdict.admitted) return undefined;
    return {
      code: grpc.status.PERMISSION_DENIED,
      details: `${verdict.details} of cluster "${this.options.clusterId}"`,
      metadata: new grpc.Metadata(),
      reason: verdict.reason,
    };
  }

  private onMessageStream(
    call: grpc.ServerReadableStream<pb.RaftBatch, pb.RaftBatchResponse.$Properties>,
    callback: grpc.sendUnaryData<pb.RaftBatchResponse.$Properties>,
  ): void {
    let finished = false;
    const finish = (status: grpc.StatusObject | null) => {
      if (finished) return;
      finished = true;
      if (status) callback(status);
      else callback(null, {});
    };
    const unauthenticated = this.admitSecret(call);
    if (unauthenticated) {
      this.stats.refused.unauthenticated++;
      this.log.warn({ details: unauthenticated.details }, 'raft peer stream refused');
      finish(unauthenticated);
      return;
    }
    call.sendMetadata(new grpc.Metadata());
    const refuse = (batch: pb.RaftBatch, refused: grpc.StatusObject, reason: PeerRefusal) => {
      this.stats.batchesRejected++;
      this.stats.refused[reason]++;
      this.log.warn(
        { from: batch.from, clusterId: batch.clusterId, reason, details: refused.details },
        'raft batch rejected',
      );
      finish(refused);
    };
    let verifiedFrom: NodeId | undefined;
    call.on('data', (batch: pb.RaftBatch) => {
      if (finished) return;
      const wrongCluster = this.admitCluster(batch.clusterId);
      if (wrongCluster) {
        refuse(batch, wrongCluster, 'wrong-cluster');
        return;
      }
      if (batch.from !== verifiedFrom) {
        const wrongPeer = this.admitIdentity(call, batch.from);
        if (wrongPeer) {
          refuse(batch, wrongPeer, 'unauthenticated');
          return;
        }
        verifiedFrom = batch.from;
      }
      const messages: Message[] = [];
      try {
        for (const wire of batch.messages) {
          const m = messageFromWire(wire as pb.RaftMessage);
          if (m.from !== batch.from || m.to !== this.options.id) {
            this.log.warn(
              { from: m.from, to: m.to, batchFrom: batch.from },
              'raft message misaddressed, dropped',
            );
            continue;
          }
          messages.push(m);
        }
      } catch (error) {
        if (!(error instanceof MalformedMessageError)) throw error;
        this.stats.batchesRejected++;
        finish({ code: grpc.status.INVALID_ARGUMENT, details: error.message, metadata: new grpc.Metadata() });
        return;
      }
      const notAdmitted = this.admitMember(batch.from, messages);
      if (notAdmitted) {
        refuse(batch, notAdmitted, notAdmitted.reason);
        return;
      }
      this.answerAt(batch.from, batch.fromAddress);
      this.stats.batchesReceived++;
      this.stats.messagesReceived += messages.length;
      if (messages.length > 0) this.options.handler.receive(messages);
    });
    call.on('end', () => finish(null));
    call.on('error', () => {
      finished = true;
    });
  }

  private onSnapshotStream(
    call: grpc.ServerReadableStream<pb.SnapshotChunk, pb.InstallSnapshotResponse.$Properties>,
    callback: grpc.sendUnaryData<pb.InstallSnapshotResponse.$Properties>,
  ): void {
    const receiver = new SnapshotReceiver(this.options.incomingSnapshotDir, this.limits.maxSnapshotBytes);
    let finished = false;
    let sawLast = false;
    let work = Promise.resolve();
    const fail = (error: unknown) => {
      if (finished) return;
      finished = true;
      this.stats.snapshotsReceiveFailed++;
      const code = error instanceof SnapshotTransferError ? error.code : grpc.status.INTERNAL;
      this.log.warn({ from: receiver.message?.from, err: String(error) }, 'raft snapshot receive failed');
      void receiver.discard(true);
      callback({
        code,
        details: error instanceof Error ? error.message : String(error),
        metadata: new grpc.Metadata(),
      });
    };
    const unauthenticated = this.admitSecret(call);
    if (unauthenticated) {
      this.stats.refused.unauthenticated++;
      finished = true;
      this.log.warn({ details: unauthenticated.details }, 'raft snapshot stream refused');
      callback(unauthenticated);
      return;
    }
    // Chunks are written strictly in order; the stream is paused while one is on its way to disk.
    call.on('data', (chunk: pb.SnapshotChunk) => {
      if (finished) return;
      call.pause();
      work = work
        .then(async () => {
          if (finished) return;
          if (!receiver.message) {
            const wrongCluster = this.admitCluster(chunk.clusterId);
            if (wrongCluster) {
              this.stats.batchesRejected++;
              this.stats.refused['wrong-cluster']++;
              throw new SnapshotTransferError(wrongCluster.details, wrongCluster.code);
            }
            const wrongPeer = this.admitIdentity(call, chunk.from);
            if (wrongPeer) {
              this.stats.batchesRejected++;
              this.stats.refused.unauthenticated++;
              throw new SnapshotTransferError(wrongPeer.details, wrongPeer.code);
            }
            const message = await receiver.start(this.options.incomingSnapshotDir, chunk);
            const notAdmitted = this.admitMember(chunk.from, [message]);
            if (notAdmitted) {
              this.stats.batchesRejected++;
              this.stats.refused[notAdmitted.reason]++;
              throw new SnapshotTransferError(notAdmitted.details, notAdmitted.code);
            }
          }
          if (chunk.data && chunk.data.length > 0) await receiver.write(chunk.data);
          if (chunk.last) {
            sawLast = true;
            await receiver.finish(chunk.sha256);
            const message = receiver.message as Message;
            await this.options.handler.receiveSnapshot(message, receiver.path);
            this.stats.snapshotsReceived++;
            finished = true;
            callback(null, { bytes: Long.fromNumber(receiver.bytes, true) });
          }
        })
        .then(
          () => {
            call.resume();
          },
          (error: unknown) => fail(error),
        );
    });
    call.on('end', () => {
      work = work.then(() => {
        if (!sawLast)
          fail(
            new SnapshotTransferError(
              'snapshot stream ended without its last chunk',
              grpc.status.INVALID_ARGUMENT,
            ),
          );
      });
    });
    call.on('error', () => {
      work = work.then(() => {
        if (!finished) {
          finished = true;
          this.stats.snapshotsReceiveFailed++;
          void receiver.discard();
        }
      });
    });
  }
}

function splitHostPort(address: string): [string, string] {
  const i = address.lastIndexOf(':');
  if (i < 0) throw new PeerConfigError(`peer address must be host:port, got "${address}"`);
  return [address.slice(0, i), address.slice(i + 1)];
}
