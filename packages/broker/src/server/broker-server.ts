// One node's wiring: store, state machine, Raft node, the leader layer and the client and HTTP
// endpoints, and the leadership and shutdown sequences that move between them. Over 400 lines:
// the start and stop orders are one sequence each and read best in one place.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SteadyClock } from '@fermata/base';
import {
  AdminService,
  BackupService,
  BrokerService,
  CLIENT_PORT_STREAM_WINDOW_BYTES,
  ClusterService,
  SchedulesService,
  widenServerFlowControl,
} from '@fermata/protocol';
import { type DiskFull, DiskFullError, type NotLeaderError, RaftNode, StorageError } from '@fermata/raft';
import { type KVStore, NoSpaceError, openStore } from '@fermata/storage';
import * as grpc from '@grpc/grpc-js';
import { backupHandlers } from '../backup/grpc-backup.js';
import { createQueueHasher } from '../keys.js';
import type { Janitor } from '../leader/index.js';
import { applyBound } from '../state/apply/apply-bound.js';
import { groupPaused } from '../state/model/records.js';
import { BrokerStateMachine } from '../state/state-machine.js';
import { ClientListener } from './client-listener.js';
import { registerClockGauge, watchClockSteps } from './clock-gauge.js';
import { ensureClusterIdentity } from './cluster-identity.js';
import {
  advertiseAddress,
  allowedOriginsOf,
  bootstrapMembers,
  type FermataConfig,
  stateStoreOptions,
} from './config.js';
import { consoleAssetsDir, createConsoleRoute } from './console-route.js';
import { grpcError, notLeaderError, type ServerContext } from './context.js';
import { guardDecoding } from './decode-guard.js';
import { ShutdownTimeoutError, UnavailableError } from './errors.js';
import { Forwarder, forwarding } from './forward.js';
import { adminHandlers, clusterHandlers } from './grpc-admin.js';
import { brokerHandlers } from './grpc-broker.js';
import { schedulesHandlers } from './grpc-schedules.js';
import { HealthReporter, HealthService } from './health.js';
import { type HttpServerHandle, startHttpServer } from './http.js';
import { createHttpApi, HTTP_CALL_DEADLINE_MS } from './http-api.js';
import { assembleLeaderParts } from './leader-parts.js';
import { wireLeaderLayer } from './leader-wiring.js';
import { LocalCaller } from './local-call.js';
import { createServerLogger, type Logger, type ServerLogger } from './logger.js';
import { BrokerMetrics, type QueueGauges } from './metrics.js';
import { type NodeStatus, readiness } from './readiness.js';
import { httpApiClosedReason, httpAuthorizer, type Security, setupSecurity } from './security.js';

function diskFullStatus(full: DiskFull | undefined): { diskFull?: { disk: string; path: string } } {
  return full ? { diskFull: { disk: full.disk, path: full.path } } : {};
}

/**
 * Opens the state store, waiting while its disk has no room for LevelDB to
 * write its log out (a node started on a full disk would otherwise exit, and
 * be started again, in a loop): tries again every 2 s, and says so.
 */
async function openWaitingForRoom(open: () => Promise<KVStore>, log: Logger): Promise<KVStore> {
  for (let attempt = 0; ; attempt++) {
    try {
      const store = await open();
      if (attempt > 0) log.warn('the state store opened: the disk has room again');
      return store;
    } catch (err) {
      if (!(err instanceof NoSpaceError)) throw err;
      // Once, then every 30 s.
      if (attempt % 15 === 0) {
        log.error(
          { disk: 'state', path: err.path, err: err.message },
          'the disk is full: the state store cannot be opened; trying again every 2 s until it has room',
        );
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

/** Exit code of a node stopped by a failed disk write or sync (EX_IOERR): restart it once the disk is sound. */
export const EXIT_DISK_FAILURE = 74;
/** Exit code of a node stopped by any other unrecoverable error (EX_SOFTWARE). */
export const EXIT_FATAL = 70;

/** How long shutdown waits for a leadership transfer and for calls to finish. */
export const SHUTDOWN_TRANSFER_TIMEOUT_MS = 3_000;
export const SHUTDOWN_DRAIN_TIMEOUT_MS = 5_000;
/** Queue gauges (pending, in flight per topic and group) are re-read at most this often. */
export const QUEUE_GAUGES_INTERVAL_MS = 250;
/** Queues' next due times (fermata_oldest_overdue_seconds) are re-read at most this often. */
export const QUEUE_DUE_INTERVAL_MS = 5_000;

/**
 * One Fermata node: the state machine over its store, the Raft node, the
 * leader's dispatcher and janitor, the client gRPC API (Broker, Admin,
 * Cluster, Health) and the HTTP endpoints. `fermata serve` runs one.
 */
export class BrokerServer {
  private grpcServer: grpc.Server | undefined;
  private http: HttpServerHandle | undefined;
  private health: HealthReporter | undefined;
  private stopped: Promise<void> | undefined;
  /** TLS files and tokens being watched for changes. */
  private security: Security | undefined;
  /** The client port's socket (connection limit in front of gRPC). */
  private clientListener: ClientListener | undefined;
  /** Connections to the leader for the calls this node forwards. */
  private forwarder: Forwarder | undefined;
  /** Ends the streams of a lost leadership once the new leader is known (see endStreamsNamingLeader). */
  private pendingStreamEnd: ((leader: string) => void) | undefined;
  /** Pending / in-flight per queue for /metrics: read from the store after applies (throttled). */
  private queueGauges: readonly QueueGauges[] = [];
  private gaugeRefresh: {
    running: boolean;
    again: boolean;
    timer: NodeJS.Timeout | undefined;
    /** When the queues' next due times were last read, and what they were. */
    dueReadAtMs: number;
    nextDue: Map<bigint, number | undefined>;
    dueTimer: NodeJS.Timeout | undefined;
  } = {
    running: false,
    again: false,
    timer: undefined,
    dueReadAtMs: Number.NEGATIVE_INFINITY,
    nextDue: new Map(),
    dueTimer: undefined,
  };

  private constructor(
    readonly config: FermataConfig,
    readonly ctx: ServerContext,
    private readonly store: KVStore,
    private readonly janitor: Janitor,
    private readonly serverLog: ServerLogger,
    readonly clientAddress: string,
  ) {}

  static async start(config: FermataConfig): Promise<BrokerServer> {
    const serverLog = createServerLogger({ nodeId: config.nodeId, level: config.logLevel });
    const log = serverLog.logger;
    mkdirSync(config.dataDir, { recursive: true });
    await ensureClusterIdentity(config.dataDir, config.clusterId);
    const store = await openWaitingForRoom(
      () => openStore(stateStoreOptions(config.storage, join(config.dataDir, 'state'))),
      log,
    );
    const sm = await BrokerStateMachine.open({
      store,
      hasher: await createQueueHasher(),
      limits: config.limits,
      cacheEntries: config.storage.recordCacheEntries,
    });
    // Stamps, due times, leases and schedules run on the wall clock at start advanced by the
    // monotonic clock: a step of the system clock moves none of them (SteadyClock, @fermata/base).
    const clock = new SteadyClock();
    const metrics = new BrokerMetrics({ nowMs: () => clock.nowMs() });
    registerClockGauge(metrics.registry, clock);
    watchClockSteps(clock, log);

    // Certificates and tokens are loaded (and checked) before anything listens.
    let listener: ClientListener | undefined;
    const security = setupSecurity({
      config,
      log,
      topicOfQueue: async (queueHash) => (await sm.reader.getQueue(queueHash))?.topic,
      onAuthenticated: (peer) => listener?.markAuthenticated(peer),
    });

    // The client port is bound first so its advertised address is known to the members list.
    const grpcServer = new grpc.Server({
      ...security.clientServerOptions,
      'grpc.max_receive_message_length': config.limits.maxBatchPayloadBytes + 4 * 1024 * 1024,
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_permit_without_calls': 1,
    });
    const clientListener = await ClientListener.listen(
      grpcServer,
      config.client.listenAddress,
      security.clientCredentials,
      {
        maxConnections: config.limits.maxConnections,
        maxPending: config.limits.maxPendingConnections,
        maxPendingPerAddress: config.limits.maxPendingConnectionsPerAddress,
        handshakeTimeoutMs: config.limits.handshakeTimeoutMs,
        log,
      },
    );
    listener = clientListener;
    widenServerFlowControl(grpcServer, { streamBytes: CLIENT_PORT_STREAM_WINDOW_BYTES });
    const boundPort = clientListener.port;
    const clientAddress = advertiseAddress(
      config.client.advertiseAddress,
      config.client.listenAddress,
      boundPort,
    );
    const peerAddress = advertiseAddress(config.peer.advertiseAddress, config.peer.listenAddress);
    const members = Object.fromEntries(
      bootstrapMembers(config, { peerAddress, clientAddress }).map((m) => [
        m.id,
        { peerAddress: m.peerAddress, clientAddress: m.clientAddress },
      ]),
    );

    const node = await RaftNode.open({
      id: config.nodeId,
      clusterId: config.clusterId,
      dataDir: join(config.dataDir, 'raft'),
      listenPeerAddress: config.peer.listenAddress,
      initialMembers: members,
      join: config.join,
      stateMachine: sm,
      tickMs: config.raft.tickMs,
      electionTicks: config.raft.electionTicks,
      heartbeatTicks: config.raft.heartbeatTicks,
      snapshotEveryEntries: config.raft.snapshotEveryEntries,
      snapshotKeepEntries: config.raft.snapshotKeepEntries,
      logSegmentBytes: config.raft.logSegmentBytes,
      logCacheBytes: config.raft.logCacheBytes,
      maxUncommittedBytes: config.raft.maxUncommittedBytes,
      maxMsgBytes: config.raft.maxAppendBytes,
      maxInflight: config.raft.maxInflightAppends,
      // Vote requests carry the time this node would stamp commands with; a candidate beyond the bound is refused.
      wallClock: clock,
      maxClockOffsetMs: config.raft.maxClockOffsetMs,
      onFsync: (sample) => metrics.fsyncDurationMs.observe(sample.durationMs),
      log,
      transport: {
        ...(security.peerTls ? { tls: security.peerTls } : {}),
        ...(security.peerSecret !== undefined ? { secret: security.peerSecret } : {}),
      },
    });

    const { ctx, janitor } = assembleLeaderParts({
      config,
      node,
      sm,
      metrics,
      log,
      clock,
      publishIdempotency: config.publishIdempotency,
      tokens: () => security.tokens.tokens(),
    });
    const server = new BrokerServer(config, ctx, store, janitor, serverLog, clientAddress);
    server.security = security;
    server.clientListener = clientListener;
    server.wireNode();

    // A node that does not lead forwards client calls to the leader (forward.ts).
    const forwarder = new Forwarder(ctx, config);
    server.forwarder = forwarder;
    // Each client service is served over gRPC and, the same definitions and handlers, by the HTTP API.
    const calls = new LocalCaller({
      tokens: () => security.tokens.tokens(),
      topicOfTag: security.topicOfTag,
      log,
      deadlineMs: HTTP_CALL_DEADLINE_MS,
    });
    const serve = <D extends grpc.ServiceDefinition, H extends grpc.UntypedServiceImplementation>([
      def,
      handlers,
    ]: [D, H]) => {
      grpcServer.addService(def, handlers);
      calls.register(def, handlers);
    };
    serve(forwarding(ctx, forwarder, guardDecoding(BrokerService), brokerHandlers(ctx)));
    serve(forwarding(ctx, forwarder, guardDecoding(AdminService), adminHandlers(ctx)));
    serve(forwarding(ctx, forwarder, guardDecoding(ClusterService), clusterHandlers(ctx)));
    serve(forwarding(ctx, forwarder, guardDecoding(SchedulesService), schedulesHandlers(ctx)));
    // Backups stream from the leader; the SDK goes there itself (forwarding carries no server stream).
    serve([guardDecoding(BackupService), backupHandlers(ctx)]);
    server.health = new HealthReporter({
      readiness: () =>
        readiness(server.nodeStatus(), config.http.readyMaxLagEntries, config.http.readyMaxApplyMs),
    });
    grpcServer.addService(HealthService, server.health.handlers);
    server.grpcServer = grpcServer;

    metrics.setProviders({
      raft: () => {
        const s = node.status();
        const full = node.diskFull();
        return {
          term: s.term,
          commit: s.commit,
          applied: s.applied,
          isLeader: s.role === 'leader',
          peerRefused: s.counters.peerRefused,
          clockRefusals: s.counters.clockRefusals,
          ...(full ? { diskFull: full } : {}),
        };
      },
      queues: () => server.queueGauges,
      connections: () => ({
        open: clientListener.connections,
        pending: clientListener.pendingCount,
        closed: clientListener.closed,
      }),
      apply: () => {
        const bound = applyBound(sm.limits);
        return {
          deletionsInProgress: sm.deleting.size,
          boundRecords: bound.records,
          boundBytes: bound.bytes,
        };
      },
    });
    sm.onCommandWork = (_kind, work) => metrics.observeCommandWork(work.records, work.bytes);
    metrics.setProviders({
      consume: () => ({
        heldDeliveries: ctx.dispatcher.heldForBuffer(),
        loadedBytes: ctx.dispatcher.loadedPayloadBytes,
        limitBytes: config.limits.maxConsumeBufferBytes,
      }),
    });
    server.refreshQueueGauges();
    const authorizeHttp = httpAuthorizer(config, security.tokens);
    const apiClosed = httpApiClosedReason(config);
    server.http = await startHttpServer({
      listenAddress: config.http.listenAddress,
      status: () => server.nodeStatus(),
      registry: metrics.registry,
      readyMaxLagEntries: config.http.readyMaxLagEntries,
      readyMaxApplyMs: config.http.readyMaxApplyMs,
      logger: log,
      ...(authorizeHttp ? { authorize: authorizeHttp } : {}),
      routes: [
        createHttpApi({
          caller: calls,
          limits: config.limits,
          allowedOrigins: allowedOriginsOf(config.http.allowedOrigins),
          ...(apiClosed !== undefined ? { closedReason: apiClosed } : {}),
          toGrpc: (err) => grpcError(ctx, err),
          onAnswered: (route, status) => metrics.httpApiRequests.inc({ route, status: String(status) }),
        }),
        createConsoleRoute(consoleAssetsDir()),
      ],
    });
    log.info(
      {
        client: clientAddress,
        peer: node.peerAddress,
        http: server.http.address,
        members: Object.keys(members),
      },
      'fermata node started',
    );
    return server;
  }

  get httpAddress(): string {
    return this.http?.address ?? '';
  }

  /** What /readyz, the status page and the health service read. */
  nodeStatus(): NodeStatus {
    const s = this.ctx.node.status();
    return {
      nodeId: s.id,
      clusterId: s.clusterId,
      role: s.role,
      term: s.term,
      leaderId: s.leader,
      leaderAddress: s.leaderAddress,
      commit: s.commit,
      applied: s.applied,
      stopping: this.ctx.stopping,
      applyRunningMs: this.ctx.sm.applyRunningMs(),
      ...diskFullStatus(this.ctx.node.diskFull()),
      members: s.members.map((m) => ({
        id: m.id,
        clientAddress: m.clientAddress,
        peerAddress: m.peerAddress,
        role: m.role,
      })),
    };
  }

  private wireNode(): void {
    const { node, sm, dispatcher, proposer, metrics, log } = this.ctx;
    wireLeaderLayer(
      {
        node,
        sm,
        dispatcher,
        janitor: this.janitor,
        materializer: this.ctx.materializer,
        purger: this.ctx.purger,
        ...(this.ctx.pusher ? { pusher: this.ctx.pusher } : {}),
        proposer,
        log,
      },
      {
        onBecameLeader: (term) => {
          // Streams of an earlier leadership still waiting to learn the leader end now.
          this.pendingStreamEnd?.('');
          this.serverLog.setRaftState({ term, role: 'leader' });
          log.info({ term }, 'became leader');
        },
        onLostLeadership: (term, leader) => {
          proposer.failQueued(this.notLeader(leader));
          this.endStreamsNamingLeader(leader);
          this.serverLog.setRaftState({ term, role: node.status().role });
          log.info({ term, leader }, 'lost leadership');
        },
      },
    );
    let lastApplied = node.status().applied;
    node.on('applied', ({ index }) => {
      if (index > lastApplied) metrics.applyBatchEntries.observe(index - lastApplied);
      lastApplied = index;
      this.scheduleQueueGauges();
    });
    node.on('snapshot', ({ kind, meta }) => {
      if (kind === 'installed') lastApplied = meta.index;
    });
    node.on('leader-changed', ({ leader, term }) => {
      this.serverLog.setRaftState({ term, role: node.status().role });
      metrics.noteLeader(leader);
      this.health?.update();
      log.info({ leader, term }, leader ? 'leader known' : 'no leader known');
    });
    // Requests queued for the next entries would wait behind proposals the node cannot write.
    node.on('disk-full', (full) => proposer.failQueued(new DiskFullError(full)));
    node.on('fatal', (err) => {
      // A disk that failed a write or a sync (EIO): fail-stop, never retried (docs/design.md, "Disk faults").
      if (err instanceof StorageError) {
        log.fatal(
          { err, operation: err.operation, file: err.file, code: err.code, exitCode: EXIT_DISK_FAILURE },
          `disk failure: ${err.message}`,
        );
      } else log.fatal({ err }, 'raft node stopped on an unrecoverable error');
      const code = err instanceof StorageError ? EXIT_DISK_FAILURE : EXIT_FATAL;
      void this.stop().finally(() => process.exit(code));
    });
  }

  private notLeader(leader: string): NotLeaderError {
    const address = leader ? (this.ctx.node.memberAddresses(leader)?.clientAddress ?? '') : '';
    return notLeaderError(leader, address);
  }

  /**
   * Ends the consume streams of a lost leadership. A node that steps down
   * usually learns the new leader a moment later (after a transfer or an
   * election), so when none is known yet the streams wait up to two election
   * timeouts for it: ending with FAILED_PRECONDITION and the leader's address
   * lets a client go straight there instead of searching.
   */
  private endStreamsNamingLeader(leader: string): void {
    const { node, dispatcher } = this.ctx;
    this.pendingStreamEnd?.('');
    if (leader !== '') {
      dispatcher.stop(this.notLeader(leader));
      return;
    }
    const onChange = ({ leader: next }: { leader: string }) => {
      if (next !== '' && next !== node.id) finish(next);
    };
    const timer = setTimeout(() => finish(''), 2 * this.config.raft.electionTicks * this.config.raft.tickMs);
    timer.unref();
    const finish = (known: string) => {
      clearTimeout(timer);
      node.off('leader-changed', onChange);
      if (this.pendingStreamEnd === finish) this.pendingStreamEnd = undefined;
      dispatcher.stop(this.notLeader(known));
    };
    this.pendingStreamEnd = finish;
    node.on('leader-changed', onChange);
  }

  /** Re-reads the queue counters at most every QUEUE_GAUGES_INTERVAL_MS while applies happen. */
  private scheduleQueueGauges(): void {
    const r = this.gaugeRefresh;
    if (r.timer || this.ctx.stopping) return;
    r.timer = setTimeout(() => {
      r.timer = undefined;
      this.refreshQueueGauges();
    }, QUEUE_GAUGES_INTERVAL_MS);
    r.timer.unref();
  }

  private refreshQueueGauges(): void {
    const r = this.gaugeRefresh;
    if (r.running) {
      r.again = true;
      return;
    }
    r.running = true;
    this.ctx.reader
      .listQueues()
      .then(async (queues) => {
        // Next due times (for fermata_oldest_overdue_seconds) are read at most every
        // QUEUE_DUE_INTERVAL_MS (monotonic: a step of the system clock neither stops nor
        // hastens them): one bounded read per queue that holds something.
        const now = performance.now();
        if (now - r.dueReadAtMs >= QUEUE_DUE_INTERVAL_MS) {
          r.dueReadAtMs = now;
          const held = queues.filter((q) => q.pending + q.inFlight > 0);
          const dues = await Promise.all(held.map((q) => this.ctx.reader.nextDueMs(q.queueHash)));
          r.nextDue = new Map(held.map((q, i) => [q.queueHash, dues[i]]));
        } else if (!r.dueTimer && !this.ctx.stopping) {
          // Applies came since the last read: read again once the interval is over, applies or not.
          r.dueTimer = setTimeout(
            () => {
              r.dueTimer = undefined;
              this.refreshQueueGauges();
            },
            r.dueReadAtMs + QUEUE_DUE_INTERVAL_MS - now,
          );
          r.dueTimer.unref();
        }
        // Whether each queue is paused: its topic's record (one read of every topic).
        const topics = new Map((await this.ctx.reader.listTopics()).map((t) => [t.name, t]));
        this.queueGauges = queues.map((q) => {
          const topic = topics.get(q.topic);
          return {
            topic: q.topic,
            group: q.group,
            pending: q.pending,
            inFlight: q.inFlight,
            nextDueMs: q.pending + q.inFlight > 0 ? r.nextDue.get(q.queueHash) : undefined,
            paused: topic !== undefined && groupPaused(topic, q.group),
          };
        });
      })
      .then(
        () => {},
        (err: unknown) => this.ctx.log.warn({ err: String(err) }, 'reading queue gauges failed'),
      )
      .finally(() => {
        r.running = false;
        if (r.again) {
          r.again = false;
          this.scheduleQueueGauges();
        }
      });
  }

  /**
   * Graceful stop (SIGTERM): refuse new calls, hand leadership to a follower if
   * leading, end consume streams with a clear status, drain, flush, close.
   */
  stop(): Promise<void> {
    // Past shutdown.graceMs the promise rejects (the caller exits non-zero) instead of hanging.
    this.stopped ??= withTimeout(this.doStop(), this.config.shutdown.graceMs).catch((err: unknown) => {
      throw new ShutdownTimeoutError(
        `shutdown did not finish within shutdown.graceMs = ${this.config.shutdown.graceMs}: ${String(err)}`,
      );
    });
    return this.stopped;
  }

  /** A shutdown step's timeout: its default, but never more than a third of the grace period. */
  private shutdownStepMs(defaultMs: number): number {
    return Math.min(defaultMs, Math.floor(this.config.shutdown.graceMs / 3));
  }

  private async doStop(): Promise<void> {
    const { node, dispatcher, proposer, sm, log } = this.ctx;
    this.ctx.stopping = true;
    this.health?.update();
    log.info('shutting down');
    if (node.isLeader() && node.status().members.filter((m) => m.voter).length > 1) {
      await withTimeout(node.transferLeadership(), this.shutdownStepMs(SHUTDOWN_TRANSFER_TIMEOUT_MS)).catch(
        (err: unknown) => log.warn({ err: String(err) }, 'leadership transfer on shutdown failed'),
      );
    }
    const shutting = new UnavailableError('server is shutting down; reconnect to another node');
    this.ctx.pusher?.stop();
    dispatcher.stop(shutting);
    proposer.failQueued(shutting);
    this.janitor.stop();
    this.ctx.purger.stop();
    this.ctx.materializer?.stop();
    const grpcServer = this.grpcServer;
    const listenerClosed = this.clientListener?.close();
    if (grpcServer) {
      await withTimeout(
        new Promise<void>((resolve) => grpcServer.tryShutdown(() => resolve())),
        this.shutdownStepMs(SHUTDOWN_DRAIN_TIMEOUT_MS),
      ).catch(() => grpcServer.forceShutdown());
    }
    this.clientListener?.destroyAll();
    this.forwarder?.close();
    await listenerClosed;
    this.health?.close();
    this.security?.close();
    await this.http?.close();
    await node.close();
    await sm.flush().catch((err: unknown) => log.warn({ err: String(err) }, 'final flush failed'));
    await this.store.close();
    log.info('stopped');
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
