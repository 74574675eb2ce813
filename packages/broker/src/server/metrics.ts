/**
 * The server's Prometheus metrics, in a registry owned by one server instance
 * (never prom-client's global one, so several nodes can share a process in
 * tests). Counters are pushed by the code paths; gauges of queue sizes and Raft
 * progress are read from provider functions at scrape time.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ScheduleMetrics } from '../leader/materializer.js';
import type { PurgeMetrics } from '../leader/purger.js';
import type { PushMetrics } from '../leader/push/push-metrics.js';

/** Pending and in-flight entries of one queue (topic + group), as the state machine counts them. */
export interface QueueGauges {
  readonly topic: string;
  readonly group: string;
  readonly pending: number;
  readonly inFlight: number;
  /**
   * When something in it falls due next (a pending entry's due time, or a
   * running lease's end): past, since when the oldest due message has waited
   * for a consumer. Undefined when it holds nothing.
   */
  readonly nextDueMs?: number | undefined;
  /** The topic or the group is paused: nothing new is leased for it. */
  readonly paused?: boolean;
}

export interface RaftGauges {
  readonly term: number;
  readonly commit: number;
  readonly applied: number;
  readonly isLeader: boolean;
  /** Peer streams and batches refused since start, by reason (unauthenticated, not-member, term-bound, ...). */
  readonly peerRefused?: Readonly<Record<string, number>>;
  /** Vote requests refused for the candidate's clock since start: by this node, and this node's by its peers. */
  readonly clockRefusals?: { readonly refused: number; readonly refusedByPeers: number };
  /** The disk a write found full, until a write there succeeds again ('log': the Raft log's; 'state': the store's). */
  readonly diskFull?: { readonly disk: string; readonly path: string };
}

/** The disks `fermata_disk_full` reports on, always both (0 or 1). */
export const DISK_NAMES = ['log', 'state'] as const;

/** The client port's connection counts (ClientListener). */
export interface ConnectionGauges {
  readonly open: number;
  readonly pending: number;
  /** Connections the listener closed, by the limit that closed them. */
  readonly closed: Readonly<Record<string, number>>;
}

/** The state machine's deletions under way and the bound on one command's apply (apply-bound.ts). */
export interface ApplyGauges {
  readonly deletionsInProgress: number;
  readonly boundRecords: number;
  readonly boundBytes: number;
}

/** The node's buffer for all consume streams (server/consume-buffer.ts). */
export interface ConsumeGauges {
  /** Deliveries leased and waiting because the buffer was full. */
  readonly heldDeliveries: number;
  /** Payload bytes of deliveries loaded by the leader and not yet written to a stream. */
  readonly loadedBytes: number;
  readonly limitBytes: number;
}

/** Records one command's apply touched: from a handful to the bound (~10^5 with the default limits). */
export const APPLY_RECORDS_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576];
export const APPLY_BYTES_BUCKETS = [
  256, 4096, 65_536, 1_048_576, 4_194_304, 16_777_216, 67_108_864, 268_435_456,
];

export interface BrokerMetricsOptions {
  /** Read at each scrape. */
  queues?: () => Iterable<QueueGauges>;
  /** Read at each scrape. */
  raft?: () => RaftGauges;
  /** Read at each scrape. */
  connections?: () => ConnectionGauges;
  /** Read at each scrape. */
  apply?: () => ApplyGauges;
  /** Read at each scrape. */
  consume?: () => ConsumeGauges;
  /** Node.js process metrics (CPU, memory, event loop lag, GC). Default true. */
  processMetrics?: boolean;
  /**
   * The node's time (its steady clock), which due times are stamped in: how
   * long a due message has waited is measured on it. Default Date.now.
   */
  nowMs?: () => number;
}

/** Delivery lateness (pushed-at minus due-at), ms: fine below 100 ms where a healthy node lives. */
export const LATENESS_BUCKETS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 300, 500, 750, 1000, 2000, 5000, 10_000];
export const FSYNC_BUCKETS_MS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 50, 100, 250, 500, 1000];
export const APPLY_BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

export class BrokerMetrics {
  readonly registry = new Registry();

  readonly publishes: Counter<'topic'>;
  readonly deliveries: Counter<'topic'>;
  readonly acks: Counter<'topic'>;
  readonly nacks: Counter<'topic'>;
  readonly expirations: Counter<'topic'>;
  readonly deadLetters: Counter<'topic'>;
  readonly deadlineExceeded: Counter<'topic' | 'group' | 'action'>;
  readonly redriven: Counter<'topic'>;
  readonly forwardedCalls: Counter<'kind'>;
  readonly httpApiRequests: Counter<'route' | 'status'>;
  readonly publishRecords: Counter<'what'>;
  readonly pending: Gauge<'topic' | 'group'>;
  readonly oldestOverdue: Gauge<'topic' | 'group'>;
  readonly inFlight: Gauge<'topic' | 'group'>;
  readonly paused: Gauge<'topic' | 'group'>;
  readonly deliveryLatenessMs: Histogram<never>;
  readonly raftTerm: Gauge<never>;
  readonly raftCommitIndex: Gauge<never>;
  readonly raftAppliedIndex: Gauge<never>;
  readonly raftIsLeader: Gauge<never>;
  readonly leaderChanges: Counter<never>;
  readonly peerRefused: Counter<'reason'>;
  readonly votesRefusedClock: Counter<'refused_by'>;
  readonly fsyncDurationMs: Histogram<never>;
  readonly applyBatchEntries: Histogram<never>;
  readonly consumeUnsentBytes: Gauge<never>;
  readonly consumeBufferFull: Counter<never>;
  readonly deliveryThrottled: Counter<'topic' | 'group' | 'limit'>;
  readonly consumeHeldDeliveries: Gauge<never>;
  readonly consumeBufferLimitBytes: Gauge<never>;
  readonly consumeLoadedBytes: Gauge<never>;
  readonly clientConnections: Gauge<'state'>;
  readonly clientConnectionsClosed: Counter<'limit'>;
  /** The schedule materialiser's counts (leader only). */
  readonly schedules: ScheduleMetrics;
  /** The purger's counts (leader only). */
  readonly purges: PurgeMetrics;
  /** The pusher's counts per push group (leader only). */
  readonly push: PushMetrics;
  readonly deletionsInProgress: Gauge<never>;
  readonly applyCommandRecords: Histogram<never>;
  readonly applyCommandBytes: Histogram<never>;
  readonly applyCommandRecordsMax: Gauge<never>;
  readonly applyBoundRecords: Gauge<never>;
  readonly applyBoundBytes: Gauge<never>;

  private queues: (() => Iterable<QueueGauges>) | undefined;
  private lastLeader: string | undefined;
  private raft: (() => RaftGauges) | undefined;
  private connections: (() => ConnectionGauges) | undefined;
  private apply: (() => ApplyGauges) | undefined;
  private consume: (() => ConsumeGauges) | undefined;
  private maxCommandRecords = 0;

  constructor(options: BrokerMetricsOptions = {}) {
    const nowMs = options.nowMs ?? Date.now;
    this.queues = options.queues;
    this.raft = options.raft;
    this.connections = options.connections;
    this.apply = options.apply;
    this.consume = options.consume;
    const registers = [this.registry];
    const counter = (name: string, help: string) =>
      new Counter({ name, help, labelNames: ['topic'] as const, registers });
    this.publishes = counter(
      'fermata_publishes_total',
      'Messages published (committed and applied), by topic.',
    );
    this.deliveries = counter('fermata_deliveries_total', 'Deliveries pushed to consumers, by topic.');
    this.acks = counter('fermata_acks_total', 'Deliveries acknowledged, by topic.');
    this.nacks = counter('fermata_nacks_total', 'Deliveries negatively acknowledged, by topic.');
    this.expirations = counter('fermata_expirations_total', 'Messages expired by their TTL, by topic.');
    this.deadLetters = counter(
      'fermata_dead_letters_total',
      'Messages moved to a dead-letter topic, by source topic.',
    );
    this.deadlineExceeded = new Counter({
      name: 'fermata_deadline_exceeded_total',
      help: 'Messages never delivered by their deadline, by topic, group and action (dead-letter: moved to the dead-letter topic with reason deadline_exceeded; drop: removed).',
      labelNames: ['topic', 'group', 'action'] as const,
      registers,
    });
    this.redriven = counter(
      'fermata_redriven_total',
      'Dead letters moved back to their topic (Redrive), by that topic.',
    );
    this.forwardedCalls = new Counter({
      name: 'fermata_forwarded_calls_total',
      help: 'Client calls this node, not leading, forwarded to the leader, by kind (unary, stream).',
      labelNames: ['kind'] as const,
      registers,
    });
    this.httpApiRequests = new Counter({
      name: 'fermata_http_api_requests_total',
      help: 'Requests of the JSON API on the HTTP port answered by this node, by route (publish, batch, cancel, reschedule, rpc, other) and HTTP status.',
      labelNames: ['route', 'status'] as const,
      registers,
    });

    this.publishRecords = new Counter({
      name: 'fermata_janitor_publish_records_total',
      help: "This node's janitor, as leader, on publish records: records read, entry keys read to check them, records forgotten (what).",
      labelNames: ['what'] as const,
      registers,
    });

    const self = this;
    this.pending = new Gauge({
      name: 'fermata_pending_messages',
      help: 'Entries waiting for their due time or for a consumer, by topic and group.',
      labelNames: ['topic', 'group'] as const,
      registers,
      collect() {
        self.collectQueues(this, (q) => q.pending);
      },
    });
    this.oldestOverdue = new Gauge({
      name: 'fermata_oldest_overdue_seconds',
      help: 'How long the oldest message that is due has waited for a consumer (0: none waits), by topic and group: grows while nobody takes what is due (no consumer, paused, stuck).',
      labelNames: ['topic', 'group'] as const,
      registers,
      collect() {
        const now = nowMs();
        self.collectQueues(this, (q) =>
          q.nextDueMs === undefined ? 0 : Math.max(0, now - q.nextDueMs) / 1000,
        );
      },
    });
    this.inFlight = new Gauge({
      name: 'fermata_in_flight_messages',
      help: 'Entries leased to a consumer and not yet acked, by topic and group.',
      labelNames: ['topic', 'group'] as const,
      registers,
      collect() {
        self.collectQueues(this, (q) => q.inFlight);
      },
    });
    this.paused = new Gauge({
      name: 'fermata_paused',
      help: '1 while the topic or the group is paused (nothing new is leased for it), else 0, by topic and group.',
      labelNames: ['topic', 'group'] as const,
      registers,
      collect() {
        self.collectQueues(this, (q) => (q.paused ? 1 : 0));
      },
    });
    this.deliveryLatenessMs = new Histogram({
      name: 'fermata_delivery_lateness_ms',
      help: 'Pushed-at minus due-at of each delivery, in milliseconds; for a delivery a rate or in-flight limit held back (fermata_delivery_throttled_total), pushed-at minus when the limit let it go.',
      buckets: LATENESS_BUCKETS_MS,
      registers,
    });
    this.schedules = {
      schedules: new Gauge({
        name: 'fermata_schedules',
        help: 'Recurring schedules in the cluster (reported by the leader).',
        registers,
      }),
      brokenSchedules: new Gauge({
        name: 'fermata_schedules_broken',
        help: 'Recurring schedules whose next occurrence cannot be computed, so they fire nothing until changed (reported by the leader; every other schedule fires).',
        registers,
      }),
      occurrencesFired: new Counter({
        name: 'fermata_schedule_occurrences_fired_total',
        help: 'Schedule occurrences turned into messages by this node as leader.',
        registers,
      }),
      occurrencesSkipped: new Counter({
        name: 'fermata_schedule_occurrences_skipped_total',
        help: 'Schedule occurrences skipped after being missed by more than the misfire threshold.',
        registers,
      }),
      materializeLatenessMs: new Histogram({
        name: 'fermata_schedule_materialize_lateness_ms',
        help: 'When an occurrence became a message minus its due time (instant plus jitter), ms (0 when ahead, as usual).',
        buckets: LATENESS_BUCKETS_MS,
        registers,
      }),
    };
    this.purges = {
      removedRecords: new Counter({
        name: 'fermata_deletion_removed_records_total',
        help: 'Records of deleted topics and groups (queue entries with their messages, key records, schedules) removed by purge steps this node proposed as leader.',
        registers,
      }),
    };
    const applyGauge = (name: string, help: string, pick: (a: ApplyGauges) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const a = self.apply?.();
          if (a !== undefined) this.set(pick(a));
        },
      });
    this.deletionsInProgress = applyGauge(
      'fermata_deletions_in_progress',
      'Deleted topics and groups whose records are still being removed (replicated: the same on every node).',
      (a) => a.deletionsInProgress,
    );
    this.applyBoundRecords = applyGauge(
      'fermata_apply_command_bound_records',
      'The most records one command may touch in apply (docs/design.md, "Every apply is bounded").',
      (a) => a.boundRecords,
    );
    this.applyBoundBytes = applyGauge(
      'fermata_apply_command_bound_bytes',
      'The most bytes one command may write in apply.',
      (a) => a.boundBytes,
    );
    this.applyCommandRecords = new Histogram({
      name: 'fermata_apply_command_records',
      help: 'Records (keys read, scanned, written or deleted) one applied command touched.',
      buckets: APPLY_RECORDS_BUCKETS,
      registers,
    });
    this.applyCommandBytes = new Histogram({
      name: 'fermata_apply_command_bytes',
      help: 'Bytes (keys and values) one applied command wrote.',
      buckets: APPLY_BYTES_BUCKETS,
      registers,
    });
    this.applyCommandRecordsMax = new Gauge({
      name: 'fermata_apply_command_records_max',
      help: 'The most records one applied command touched since the node started.',
      registers,
      collect() {
        this.set(self.maxCommandRecords);
      },
    });
    const raftGauge = (name: string, help: string, pick: (r: RaftGauges) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const r = self.raft?.();
          if (r !== undefined) this.set(pick(r));
        },
      });
    this.raftTerm = raftGauge('fermata_raft_term', 'Current Raft term of this node.', (r) => r.term);
    this.raftCommitIndex = raftGauge(
      'fermata_raft_commit_index',
      'Highest log index known committed.',
      (r) => r.commit,
    );
    this.raftAppliedIndex = raftGauge(
      'fermata_raft_applied_index',
      'Highest log index applied to the state machine.',
      (r) => r.applied,
    );
    this.raftIsLeader = raftGauge('fermata_raft_is_leader', '1 while this node is the leader.', (r) =>
      r.isLeader ? 1 : 0,
    );
    new Gauge({
      name: 'fermata_disk_full',
      help: '1 while a write of this node found its disk full (disk: log = the Raft log, state = the state machine store): the node refuses writes and retries until it has room.',
      labelNames: ['disk'] as const,
      registers,
      collect() {
        const r = self.raft?.();
        if (r === undefined) return;
        for (const disk of DISK_NAMES) this.set({ disk }, r.diskFull?.disk === disk ? 1 : 0);
      },
    });
    this.leaderChanges = new Counter({
      name: 'fermata_raft_leader_changes_total',
      help: 'Times this node saw the leader change (including to none).',
      registers,
    });
    this.peerRefused = new Counter({
      name: 'fermata_raft_peer_refused_total',
      help: 'Peer streams and batches refused (unauthenticated, wrong-cluster, not-member, term-bound), by reason.',
      labelNames: ['reason'] as const,
      registers,
      collect() {
        const refused = self.raft?.().peerRefused;
        if (refused === undefined) return;
        this.reset();
        for (const [reason, n] of Object.entries(refused)) this.inc({ reason }, n);
      },
    });
    this.votesRefusedClock = new Counter({
      name: 'fermata_raft_votes_refused_clock_total',
      help: "Vote and pre-vote requests refused because the candidate's clock differed from the voter's by more than raft.maxClockOffsetMs: refused_by=self, requests of other nodes this node refused; refused_by=peer, this node's requests its peers refused (this node cannot be elected by them).",
      labelNames: ['refused_by'] as const,
      registers,
      collect() {
        const r = self.raft?.().clockRefusals;
        if (r === undefined) return;
        this.reset();
        this.inc({ refused_by: 'self' }, r.refused);
        this.inc({ refused_by: 'peer' }, r.refusedByPeers);
      },
    });
    this.fsyncDurationMs = new Histogram({
      name: 'fermata_fsync_duration_ms',
      help: 'Duration of each durable write (O_DSYNC, the write included) or fsync of the Raft log, in milliseconds.',
      buckets: FSYNC_BUCKETS_MS,
      registers,
    });
    this.applyBatchEntries = new Histogram({
      name: 'fermata_apply_batch_entries',
      help: 'Committed entries applied to the state machine in one batch.',
      buckets: APPLY_BATCH_BUCKETS,
      registers,
    });
    this.consumeUnsentBytes = new Gauge({
      name: 'fermata_consume_unsent_payload_bytes',
      help: 'Payload bytes of deliveries written to consume streams and not yet sent: held while a client does not read (at most its prefetch of deliveries), released when its stream closes.',
      registers,
    });
    this.consumeBufferFull = new Counter({
      name: 'fermata_consume_buffer_full_total',
      help: 'Times the leader held back a push to a consume stream, or stopped leasing, because the node held limits.maxConsumeBufferBytes of deliveries (loaded and not yet written, or written and not yet sent) over all its streams.',
      registers,
    });
    this.push = pushMetrics(registers);
    this.deliveryThrottled = new Counter({
      name: 'fermata_delivery_throttled_total',
      help: "Leases of deliveries that their group's max_deliveries_per_second (limit=rate) or max_in_flight (limit=in_flight) held back past their due time, counted by the leader when it leases them: one per lease so held, under the limit that held it last. Their lateness in fermata_delivery_lateness_ms counts from when the limit let them go.",
      labelNames: ['topic', 'group', 'limit'] as const,
      registers,
    });
    this.consumeLoadedBytes = new Gauge({
      name: 'fermata_consume_loaded_payload_bytes',
      help: 'Payload bytes of deliveries the leader has leased and loaded and not yet written to a consume stream (with fermata_consume_unsent_payload_bytes: what the node holds for its consumers, at most limits.maxConsumeBufferBytes).',
      registers,
      collect() {
        const c = self.consume?.();
        if (c !== undefined) this.set(c.loadedBytes);
      },
    });
    this.consumeHeldDeliveries = new Gauge({
      name: 'fermata_consume_held_deliveries',
      help: 'Deliveries leased and waiting to be pushed because the node buffer for all consume streams is full.',
      registers,
      collect() {
        const c = self.consume?.();
        if (c !== undefined) this.set(c.heldDeliveries);
      },
    });
    this.consumeBufferLimitBytes = new Gauge({
      name: 'fermata_consume_buffer_limit_bytes',
      help: 'limits.maxConsumeBufferBytes: the most payload bytes of unsent deliveries the node holds over all consume streams.',
      registers,
      collect() {
        const c = self.consume?.();
        if (c !== undefined) this.set(c.limitBytes);
      },
    });
    this.clientConnections = new Gauge({
      name: 'fermata_client_connections',
      help: 'Open client connections: all (state="open"), and those that have not yet made an authenticated call (state="pending").',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const c = self.connections?.();
        if (c === undefined) return;
        this.set({ state: 'open' }, c.open);
        this.set({ state: 'pending' }, c.pending);
      },
    });
    this.clientConnectionsClosed = new Counter({
      name: 'fermata_client_connections_closed_total',
      help: 'Client connections the node closed, by the limit: maxConnections, maxPendingPerAddress (refused on arrival), maxPending (the oldest pending, for a new one), handshakeTimeoutMs.',
      labelNames: ['limit'] as const,
      registers,
      collect() {
        const c = self.connections?.();
        if (c === undefined) return;
        this.reset();
        for (const [limit, n] of Object.entries(c.closed)) this.inc({ limit }, n);
      },
    });
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** Sets (or replaces) the providers read at scrape time, once the server has built its node. */
  setProviders(
    providers: Pick<BrokerMetricsOptions, 'queues' | 'raft' | 'connections' | 'apply' | 'consume'>,
  ): void {
    if (providers.apply !== undefined) this.apply = providers.apply;
    if (providers.consume !== undefined) this.consume = providers.consume;
    if (providers.queues !== undefined) this.queues = providers.queues;
    if (providers.raft !== undefined) this.raft = providers.raft;
    if (providers.connections !== undefined) this.connections = providers.connections;
  }

  /**
   * Call with the leader id ('' for none) whenever the node's view may have
   * changed; counts a leader change when it differs from the last one seen.
   */
  noteLeader(leaderId: string): void {
    if (this.lastLeader !== undefined && this.lastLeader !== leaderId) this.leaderChanges.inc();
    this.lastLeader = leaderId;
  }

  /** One applied command's work (the state machine's onCommandWork). */
  observeCommandWork(records: number, bytes: number): void {
    this.applyCommandRecords.observe(records);
    this.applyCommandBytes.observe(bytes);
    if (records > this.maxCommandRecords) this.maxCommandRecords = records;
  }

  /** Prometheus text exposition of every metric. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private collectQueues(gauge: Gauge<'topic' | 'group'>, pick: (q: QueueGauges) => number): void {
    // Reset so a deleted topic or group disappears instead of keeping its last value.
    gauge.reset();
    if (this.queues === undefined) return;
    for (const q of this.queues()) gauge.set({ topic: q.topic, group: q.group }, pick(q));
  }
}

/** Push groups' requests by outcome, their latency, retries and dead letters (leader only). */
function pushMetrics(registers: Registry[]): PushMetrics {
  const requests = new Counter({
    name: 'fermata_push_requests_total',
    help: "Requests the leader sent to push groups' endpoints, by how they ended: class=2xx..5xx (the answer's status class), timeout (push timeout_ms passed), error (no answer: connection refused or reset, TLS, a refused address).",
    labelNames: ['topic', 'group', 'class'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'fermata_push_request_duration_ms',
    help: 'Time from sending a push request to its answer read (or its failure), in milliseconds.',
    labelNames: ['topic', 'group'] as const,
    buckets: PUSH_LATENCY_BUCKETS_MS,
    registers,
  });
  const retries = new Counter({
    name: 'fermata_push_retries_total',
    help: "Push requests not acknowledged by their endpoint (not 2xx, timed out, or unanswered), so nacked: the message is retried after the group's backoff or the answer's Retry-After, or dead-lettered after its last attempt.",
    labelNames: ['topic', 'group'] as const,
    registers,
  });
  const deadLetters = new Counter({
    name: 'fermata_push_dead_letters_total',
    help: "Push requests that failed on the message's last attempt (max_attempts): the message goes to the dead-letter topic with the last status in its history.",
    labelNames: ['topic', 'group'] as const,
    registers,
  });
  const blocked = new Gauge({
    name: 'fermata_push_blocked',
    help: "1 while a push group sends nothing because a file it needs (its secret_file or ca_file) cannot be read: its messages wait, their attempts unspent; the leader's log names the field and the path. 0 once it can.",
    labelNames: ['topic', 'group'] as const,
    registers,
  });
  return {
    requests: { inc: (l) => requests.inc({ topic: l.topic, group: l.group, class: l.class }) },
    latencyMs: { observe: (l, v) => latency.observe({ topic: l.topic, group: l.group }, v) },
    retries: { inc: (l) => retries.inc({ topic: l.topic, group: l.group }) },
    deadLetters: { inc: (l) => deadLetters.inc({ topic: l.topic, group: l.group }) },
    blocked: { set: (l, why) => blocked.set({ topic: l.topic, group: l.group }, why === '' ? 0 : 1) },
  };
}

export const PUSH_LATENCY_BUCKETS_MS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000];
