/**
 * The server configuration schema: every key, its type, default, range and a
 * one-line description. The single source of truth for `loadConfig`, the
 * `FERMATA_*` environment mapping and the reference in docs/operations.md.
 * Over 400 lines: one table entry per setting, kept in one table on purpose.
 */
import {
  DEFAULT_MAX_INFLIGHT,
  DEFAULT_MAX_MSG_BYTES,
  DEFAULT_MAX_UNCOMMITTED_BYTES,
  DEFAULT_SEGMENT_BYTES,
  NODE_DEFAULTS,
} from '@fermata/raft';
import { DEFAULT_LIMITS } from '../state/model/limits.js';

export interface IntSpec {
  readonly kind: 'int';
  readonly default: number;
  readonly min: number;
  readonly max: number;
  readonly description: string;
}

export interface StringSpec {
  readonly kind: 'string';
  readonly default: string;
  /** When set, a non-empty value must match; `form` names the expected shape in errors. */
  readonly pattern?: RegExp;
  readonly form?: string;
  readonly allowEmpty: boolean;
  readonly description: string;
}

export interface BoolSpec {
  readonly kind: 'bool';
  readonly default: boolean;
  readonly description: string;
}

export interface EnumSpec<V extends string = string> {
  readonly kind: 'enum';
  readonly values: readonly V[];
  readonly default: V;
  readonly description: string;
}

/** `host:port`; '' (when allowed) means "derived", as the description says. */
export interface AddressSpec {
  readonly kind: 'address';
  readonly default: string;
  readonly allowEmpty: boolean;
  readonly description: string;
}

/** One member of the bootstrap cluster: its id, Raft peer address and client gRPC address. */
export interface InitialMember {
  readonly id: string;
  readonly peerAddress: string;
  readonly clientAddress: string;
}

export interface MembersSpec {
  readonly kind: 'members';
  readonly default: readonly InitialMember[];
  readonly description: string;
}

export type KeySpec = IntSpec | StringSpec | BoolSpec | EnumSpec | AddressSpec | MembersSpec;

export interface SchemaSection {
  readonly [key: string]: KeySpec | SchemaSection;
}

const int = (d: number, min: number, max: number, description: string): IntSpec => ({
  kind: 'int',
  default: d,
  min,
  max,
  description,
});
const bool = (d: boolean, description: string): BoolSpec => ({ kind: 'bool', default: d, description });
const enumOf = <const V extends string>(values: readonly V[], d: V, description: string): EnumSpec<V> => ({
  kind: 'enum',
  values,
  default: d,
  description,
});
const address = (d: string, allowEmpty: boolean, description: string): AddressSpec => ({
  kind: 'address',
  default: d,
  allowEmpty,
  description,
});

/** A file path; '' = not set. */
const fileKey = (description: string): StringSpec => ({
  kind: 'string',
  default: '',
  allowEmpty: true,
  description,
});

/** Node and cluster ids: also what AddMember accepts. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
const ID_FORM = '1-63 characters of letters, digits, ".", "_" or "-", starting with a letter or digit';

const SECOND_MS = 1000;
const DAY_MS = 24 * 60 * 60 * SECOND_MS;
const MIB = 1024 * 1024;
const YEAR_MS = 365 * DAY_MS;
const INT_MAX = Number.MAX_SAFE_INTEGER;
/** The state machine's defaults: one source for both. */
const L = DEFAULT_LIMITS;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const HTTP_AUTH_MODES = ['auto', 'on', 'off'] as const;
export type HttpAuthMode = (typeof HTTP_AUTH_MODES)[number];

/** `http.allowedOrigins`: `*`, or origins separated by commas. */
const ALLOWED_ORIGINS = /^(\*|https?:\/\/[^\s,/]+(,\s*https?:\/\/[^\s,/]+)*)$/;

/** `push.allowedEndpoints`: names, addresses and CIDRs separated by commas (parsed by endpoint-policy.ts). */
const ALLOWED_ENDPOINTS = /^[A-Za-z0-9.:*/_[\]-]+(\s*,\s*[A-Za-z0-9.:*/_[\]-]+)*$/;

/** `push.filesDir`: an absolute directory (files-policy.ts resolves it). */
const ABSOLUTE_PATH = /^\//;

/** The origins of `http.allowedOrigins`, as a browser sends them in `Origin`. */
export function allowedOriginsOf(setting: string): string[] {
  return setting === '' ? [] : setting.split(',').map((o) => o.trim().toLowerCase());
}

export const STORAGE_ENGINES = ['leveldb', 'memory'] as const;
export type StorageEngine = (typeof STORAGE_ENGINES)[number];

export const configSchema = {
  nodeId: {
    kind: 'string',
    default: 'node1',
    pattern: ID_PATTERN,
    form: ID_FORM,
    allowEmpty: false,
    description: 'This node’s id; unique in the cluster and stable across restarts.',
  } satisfies StringSpec,
  clusterId: {
    kind: 'string',
    default: 'fermata',
    pattern: ID_PATTERN,
    form: ID_FORM,
    allowEmpty: false,
    description: 'Name of the cluster; reported by GetClusterInfo.',
  } satisfies StringSpec,
  dataDir: {
    kind: 'string',
    default: './data',
    allowEmpty: false,
    description: 'Directory for the Raft log, hard state and the leveldb store (created if missing).',
  } satisfies StringSpec,
  initialMembers: {
    kind: 'members',
    default: [],
    description:
      'Bootstrap cluster: `id=peerHost:peerPort/clientHost:clientPort` entries (YAML list or comma-separated); must name this node; empty = a one-member cluster of this node.',
  } satisfies MembersSpec,
  join: bool(
    false,
    'Start as a node being added to a running cluster (no bootstrap): it waits for the leader to reach it after `fermata members add`.',
  ),
  publishIdempotency: bool(
    true,
    "As leader, honour publish requests' idempotency keys (PublishRequest.idempotency_key: a retried request is stored once). Every node applies them whatever this says; set it to false only while rolling out from a version without them (docs/operations.md, version rules).",
  ),
  client: {
    listenAddress: address(
      '0.0.0.0:7400',
      false,
      'Client gRPC (Broker, Admin, Cluster, health) listen address.',
    ),
    advertiseAddress: address(
      '',
      true,
      'Client address other nodes and clients are told; empty = the listen address (a wildcard host becomes the hostname).',
    ),
    tls: {
      certFile: fileKey(
        'PEM certificate (chain) the client port presents; empty (with keyFile) = plaintext.',
      ),
      keyFile: fileKey('PEM private key of client.tls.certFile.'),
      caFile: fileKey(
        'PEM CA bundle that verifies client certificates (mutual TLS); needed by requireClientCert.',
      ),
      requireClientCert: bool(
        false,
        'Mutual TLS on the client port: refuse clients without a certificate signed by client.tls.caFile.',
      ),
    },
  },
  peer: {
    listenAddress: address('0.0.0.0:7401', false, 'Raft peer gRPC listen address.'),
    advertiseAddress: address(
      '',
      true,
      'Peer address of this node as others reach it; empty = the listen address (a wildcard host becomes the hostname).',
    ),
    tls: {
      certFile: fileKey(
        'PEM certificate this node presents to its peers (mutual TLS); all three peer.tls files or none.',
      ),
      keyFile: fileKey('PEM private key of peer.tls.certFile.'),
      caFile: fileKey('PEM CA bundle that verifies the other nodes’ certificates.'),
      verifyIdentity: bool(
        true,
        'A peer’s certificate must name it: a SAN equal to its node id, to fermata-peer:<id>, or to the host of its peer address.',
      ),
      requirePeerUri: bool(
        true,
        'Accept only peer certificates (a URI SAN starting with fermata-peer:), so a client certificate of the same CA cannot speak on the peer port; turn off only when peer.tls.caFile issues nothing but peer certificates.',
      ),
    },
    secretFile: fileKey(
      'File holding the cluster secret (16 to 1024 characters, surrounding whitespace trimmed), the same on every member: sent with every peer call and required of every caller; empty = none. Without it or peer TLS anyone who reaches the peer port can write as a member.',
    ),
  },
  http: {
    listenAddress: address(
      '0.0.0.0:7402',
      false,
      'HTTP listen address for /metrics, /livez, /readyz, the status page and the JSON API under /v1 (docs/api.md, "HTTP API").',
    ),
    readyMaxLagEntries: int(
      100,
      0,
      INT_MAX,
      '/readyz and gRPC health report ready only while applied >= commit minus this.',
    ),
    readyMaxApplyMs: int(
      3_000,
      1,
      INT_MAX,
      '/readyz and gRPC health report not ready while one apply of committed entries has been running longer than this (ms).',
    ),
    auth: enumOf(
      HTTP_AUTH_MODES,
      'auto',
      'Whether the status page (`/`) and `/metrics` need `authorization: Bearer <token>` with a token of auth.tokensFile that has `admin` or `read` on `*`, or `monitor: true`: `on`, `off`, or `auto` = on when auth.tokensFile is set. `/livez` and `/readyz` never need one (kubelet probes). The JSON API under /v1 does not follow it: it needs a token, with the permission of each call, whenever auth.tokensFile is set, as the gRPC port does.',
    ),
    apiWithoutAuth: bool(
      false,
      'Serve the JSON API under /v1 when the client port authenticates by client certificate (client.tls.requireClientCert) and auth.tokensFile is not set. The HTTP port has no TLS and cannot check certificates, so the API would let anyone who reaches the port do anything (delete topics, remove members); off, /v1 answers 403 saying so. Turn on only when the HTTP port is reachable by trusted callers alone.',
    ),
    allowedOrigins: {
      kind: 'string',
      default: '',
      pattern: ALLOWED_ORIGINS,
      form: 'a comma-separated list of origins (https://console.example.com,http://localhost:8080), or *',
      allowEmpty: true,
      description:
        'Origins (scheme://host[:port]) of browser pages, besides the node’s own, that may call the JSON API under /v1; `*` = any. A request from a browser page of another origin (its `Origin` header, or `Sec-Fetch-Site: cross-site`/`same-site`) is refused with 403, so a page elsewhere cannot make a visitor’s browser publish, cancel or delete. Clients other than browsers send neither header and are not affected.',
    } satisfies StringSpec,
  },
  push: {
    allowedEndpoints: {
      kind: 'string',
      default: '',
      pattern: ALLOWED_ENDPOINTS,
      form: 'a comma-separated list of host names (api.example.com, *.example.com), IP addresses and CIDRs (10.0.0.0/8, fd00::/8)',
      allowEmpty: true,
      description:
        'Where push groups may send requests: host names (`*.example.com` = any name under it), IP addresses and CIDRs, comma-separated. An endpoint is allowed when its host name is listed, or when its address (a literal, or every address its name resolves to, checked again at each connection) is within a listed address or CIDR. Empty = any endpoint. Link-local and cloud metadata addresses (169.254.0.0/16, fe80::/10, fd00:ec2::254) are refused unless the endpoint names them, by name or address, in this list. Checked when a push group is created or its endpoint changed (by the node that leads), and by the leader at every connection it opens.',
    } satisfies StringSpec,
    filesDir: {
      kind: 'string',
      default: '',
      pattern: ABSOLUTE_PATH,
      form: 'an absolute directory path',
      allowEmpty: true,
      description:
        "The directory push groups' `secret_file` and `ca_file` must lie in, once `..` and symbolic links are resolved, so a topic admin cannot have the leader sign with or trust any other file the server can read (the token file, a TLS key). Empty = no push group may name a file (push groups go unsigned, with the system's CAs). Checked when a push group is created or changed (by the node that leads, FAILED_PRECONDITION naming the field and this setting), and again at every read of the file. Give every node the same directory and files.",
    } satisfies StringSpec,
  },
  storage: {
    engine: enumOf(
      STORAGE_ENGINES,
      'leveldb',
      'State machine store: `leveldb` on disk, or `memory` (nothing persists).',
    ),
    recordCacheEntries: int(
      32_768,
      0,
      10_000_000,
      "Queue entries, index, topic and queue records kept in memory for apply's reads (0 = none). A cached queue entry also holds its decoded form: up to ~400 bytes of heap per entry, ~13 MB at the default, plus the payload of an entry that carries its message's body (storage.inlineBodies).",
    ),
    inlineBodies: bool(
      true,
      'As leader, have a message of one queue entry (a topic of one group) carry its body in that entry, and find one without a key by id through a publish record per command, instead of writing a body record per message as versions without this setting do: a publish writes one record per message, an ack deletes one. Every node of this version applies both; set it to false only while rolling out from such a version (docs/operations.md, version rules).',
    ),
    blockCacheBytes: int(8 * MIB, 0, 64 * 1024 * MIB, "LevelDB's block cache (leveldb engine)."),
    maxOpenFiles: int(
      256,
      16,
      100_000,
      "Table files LevelDB keeps open (leveldb engine; LevelDB's default is 1,000). Each open table holds its index and filter blocks in memory and its file memory-mapped (counted in RSS as file-backed pages): the bound on memory that grows with the store (256: RSS 257-296 MB at 10,000,000 pending on the benchmark machine).",
    ),
    writeBufferBytes: int(
      16 * MIB,
      1 * MIB,
      1024 * MIB,
      "LevelDB's memtable (leveldb engine). Larger: fewer, larger level-0 files and less compaction CPU per message (16 MiB instead of LevelDB's 4 MiB: publish +20% on the benchmark machine); up to two are held in memory.",
    ),
    blockSizeBytes: int(
      16 * 1024,
      1024,
      4 * MIB,
      "LevelDB's uncompressed block size (leveldb engine). Each open table keeps its index in memory, an entry (a whole 25-byte queue key) per block: 16 KiB instead of LevelDB's 4 KiB makes it a quarter (~9 MB instead of 34 MB at 10,000,000 pending) and the tables a fifth smaller (blocks compress better); a lookup reads one block of 16 KiB.",
    ),
  },
  raft: {
    tickMs: int(50, 1, 10 * SECOND_MS, 'Length of one Raft tick.'),
    electionTicks: int(
      10,
      2,
      1000,
      'Ticks without a leader before an election starts (randomized up to twice this).',
    ),
    heartbeatTicks: int(1, 1, 1000, 'Ticks between leader heartbeats; must be less than electionTicks.'),
    maxClockOffsetMs: int(
      NODE_DEFAULTS.maxClockOffsetMs,
      0,
      DAY_MS,
      "Most a candidate's clock may differ from a voter's for its vote: a node whose clock (its system clock when it started) is farther than this from its voters' is not elected, so it never moves the cluster's time (docs/guarantees.md, \"The bounds between nodes\"). 0 = not checked; otherwise at least 1000.",
    ),
    maxAppendBytes: int(
      DEFAULT_MAX_MSG_BYTES,
      1024,
      64 * MIB,
      'Most entry bytes in one append message to a follower.',
    ),
    maxInflightAppends: int(
      DEFAULT_MAX_INFLIGHT,
      1,
      65_536,
      'Most unacknowledged append messages in flight to one follower.',
    ),
    maxUncommittedBytes: int(
      DEFAULT_MAX_UNCOMMITTED_BYTES,
      1 * MIB,
      4096 * MIB,
      'Proposals are refused (RESOURCE_EXHAUSTED) while the leader holds this many uncommitted bytes.',
    ),
    snapshotEveryEntries: int(
      10_000,
      1,
      INT_MAX,
      'Take a snapshot and compact the log after this many applied entries.',
    ),
    snapshotKeepEntries: int(
      5_000,
      0,
      INT_MAX,
      'Entries kept in the log behind a snapshot so slightly lagging followers catch up without one.',
    ),
    logCacheBytes: int(
      8 * MIB,
      0,
      4 * 1024 * MIB,
      'Bytes of recent log entries kept in memory so that appends to followers are not read back from disk.',
    ),
    logSegmentBytes: int(
      DEFAULT_SEGMENT_BYTES,
      1024 * 1024,
      1024 * MIB,
      'Size of one Raft log segment file; compaction deletes whole segments only.',
    ),
  },
  dispatcher: {
    maxLeaseBatch: int(
      1_000,
      1,
      10_000,
      'Most entries leased in one Raft command (over all the queues it leases for).',
    ),
    leaseAheadMs: int(
      2_000,
      0,
      L.maxLeaseAheadMs,
      'How long before its due time an entry is leased; the consumer still gets the delivery at the due time, never earlier. 0 = lease only once due. At most limits.maxLeaseAheadMs.',
    ),
    pushAheadMs: int(
      250,
      0,
      L.maxLeaseAheadMs,
      'How long before its due time a leased delivery is sent to a consumer that holds deliveries sent ahead (Subscribe.holds_ahead, as the SDK does), which hands it to the application at its start (Delivery.starts_at_ms), never earlier. Covers the network and the leader being busy. 0 = sent at the due time. Beyond dispatcher.leaseAheadMs it acts as dispatcher.leaseAheadMs.',
    ),
    maxLeaseRoundsInFlight: int(4, 1, 64, 'Lease rounds of one queue awaiting apply at once.'),
    reclaimWindowMs: int(
      3_000,
      0,
      60_000,
      'After a node becomes leader, how long the deliveries the previous leader had leased (running, held by their consumer until their start, or not yet sent) wait for their consumers to subscribe again and take them back, same tag, no new attempt. Those whose lease had not started at the election and that nobody took back are then handed back, their attempt not counted, for any consumer; those that had started wait until their lease runs out (an application may be running them).',
    ),
    leaseInPlace: bool(
      true,
      "As leader, lease entries where they lie (delivery tags of 28 bytes: the entry's key and the lease's number) instead of moving each to a key at its lease's end, as versions without this setting do. Every node of this version applies both; set it to false only while rolling out from such a version (docs/operations.md, version rules).",
    ),
    leaseRuns: bool(
      true,
      "As leader, lease the entries of each round as runs: one lease record per queue and consumer, the entries not written while leased, delivery tags of 20 bytes (the queue, the lease, the entry's offset in it), and the runs of every queue the round leases for in one command. False: one command per queue and consumer, leasing each entry on its own (dispatcher.leaseInPlace), as versions without this setting do. Every node of this version applies both; set it to false only while rolling out from such a version (docs/operations.md, version rules).",
    ),
    ackLingerMs: int(
      100,
      0,
      1_000,
      "While acks arrive from several requests at once, the leader proposes an ack entry at most once per this many ms (or when one fills limits.maxTagsPerCommand): each entry is a Raft round on every node. An ack frees its consumer's slot on arrival, so only its answer waits. An ack after an entry of one request (a client awaiting each answer), or after this long without one, goes at once. 0 = as soon as an entry is free.",
    ),
    defaultPrefetch: int(
      16,
      1,
      100_000,
      'Prefetch (unacked deliveries per consumer stream) when a subscribe sets 0.',
    ),
    maxPrefetch: int(1_000, 1, 100_000, 'Largest prefetch a consumer may ask for.'),
    defaultLeaseMs: int(
      30 * SECOND_MS,
      1,
      DAY_MS,
      'Lease of a delivery when the subscribe sets 0 and the topic has no lease of its own.',
    ),
    janitorBatch: int(256, 1, 10_000, 'Most expirations or dead-letterings in one Raft command.'),
  },
  deletion: {
    maxRecordsPerStep: int(
      1_000,
      1,
      100_000,
      'As leader, records (queue entries with their messages, key records, schedules) one purge step of a deleted topic or group removes; at most limits.maxIdsPerCommand. Each step is one Raft entry applied on every node.',
    ),
    pauseMs: int(
      10,
      0,
      60_000,
      'As leader, pause between two purge steps, so that other clients’ entries keep their share of the log while a large topic is removed.',
    ),
  },
  limits: {
    // The state machine's limits (state/model/limits.ts), same names and defaults; every node must use the same values.
    maxPayloadBytes: int(L.maxPayloadBytes, 1, 64 * MIB, 'Payload of one message.'),
    maxBatchPayloadBytes: int(
      L.maxBatchPayloadBytes,
      1,
      256 * MIB,
      'Sum of the payloads of one publish batch.',
    ),
    maxBatchMessages: int(L.maxBatchMessages, 1, 100_000, 'Messages in one publish batch.'),
    maxHeadersBytes: int(
      L.maxHeadersBytes,
      0,
      1 * MIB,
      'UTF-8 bytes of all header names and values of one message.',
    ),
    maxHeaderCount: int(L.maxHeaderCount, 0, 10_000, 'Headers of one message.'),
    // An ordering key's length is stored in 2 bytes (its wait records' keys): at most 65,535.
    maxKeyBytes: int(
      L.maxKeyBytes,
      1,
      0xffff,
      'UTF-8 bytes of a message key (dedup / cancel handle) or an ordering key.',
    ),
    maxTopicNameBytes: int(L.maxTopicNameBytes, 1, 1024, 'UTF-8 bytes of a topic name.'),
    maxGroupNameBytes: int(L.maxGroupNameBytes, 1, 1024, 'UTF-8 bytes of a group name.'),
    maxGroupsPerTopic: int(L.maxGroupsPerTopic, 1, 10_000, 'Groups of one topic, `default` included.'),
    maxDelayMs: int(
      L.maxDelayMs,
      0,
      100 * YEAR_MS,
      'Largest delay_ms, and farthest deliver_at_ms into the future.',
    ),
    maxTtlMs: int(L.maxTtlMs, 0, 100 * YEAR_MS, 'Longest time-to-live of a message.'),
    minLeaseMs: int(L.minLeaseMs, 1, DAY_MS, 'Shortest lease (subscribe, extend).'),
    maxLeaseMs: int(L.maxLeaseMs, 1, 30 * DAY_MS, 'Longest lease (subscribe, extend).'),
    maxLeaseAheadMs: int(
      L.maxLeaseAheadMs,
      0,
      60_000,
      "Furthest ahead of an entry's due time a lease command may take it.",
    ),
    maxTagsPerCommand: int(L.maxTagsPerCommand, 1, 100_000, 'Delivery tags in one lease or ack command.'),
    maxIdsPerCommand: int(
      L.maxIdsPerCommand,
      1,
      100_000,
      'Ids in one expire command, keys in one purge command.',
    ),
    maxMaxAttempts: int(L.maxMaxAttempts, 1, 1_000_000, 'Largest max_attempts a topic may set.'),
    maxTimeBucketMs: int(L.maxTimeBucketMs, 0, DAY_MS, 'Largest time_bucket_ms a topic may set.'),
    maxDedupWindowMs: int(L.maxDedupWindowMs, 0, 10 * YEAR_MS, 'Largest dedup_window_ms a topic may set.'),
    publishDedupWindowMs: int(
      L.publishDedupWindowMs,
      1_000,
      DAY_MS,
      'How long a publish request idempotency key is remembered: a retry within it stores nothing and gets the first answer.',
    ),
    maxListLimit: int(L.maxListLimit, 1, 100_000, 'Entries one list call returns.'),
    snapshotChunkBytes: int(
      L.snapshotChunkBytes,
      1024,
      64 * MIB,
      'Bytes of one snapshot chunk sent to a follower.',
    ),
    maxSchedulesPerTopic: int(L.maxSchedulesPerTopic, 1, 10_000_000, 'Recurring schedules in one topic.'),
    maxSchedules: int(L.maxSchedules, 1, 100_000_000, 'Recurring schedules in the cluster.'),
    minScheduleIntervalMs: int(
      L.minScheduleIntervalMs,
      1,
      DAY_MS,
      'Smallest interval between two occurrences of a schedule (an `every` spec or 6-field cron).',
    ),
    maxScheduleCatchUp: int(
      L.maxScheduleCatchUp,
      1,
      1_000_000,
      'Missed occurrences a schedule with catch_up: all fires after an outage (the latest ones).',
    ),
    defaultMisfireThresholdMs: int(
      L.defaultMisfireThresholdMs,
      0,
      DAY_MS,
      "An occurrence later than this is missed (its schedule's catch_up decides), unless the schedule sets misfire_threshold_ms.",
    ),
    maxScheduleAheadMs: int(
      L.maxScheduleAheadMs,
      1_000,
      3_600_000,
      'How far ahead of its instant an occurrence may be turned into a message.',
    ),
    maxScheduleJitterMs: int(L.maxScheduleJitterMs, 0, DAY_MS, 'Largest jitter_ms of a schedule.'),
    maxScheduleFiresPerCommand: int(
      L.maxScheduleFiresPerCommand,
      1,
      100_000,
      'Occurrences one fire command materialises (over all its schedules).',
    ),
    // Enforced by the server, not the state machine.
    maxConsumeBufferBytes: int(
      64 * MIB,
      1 * MIB,
      64 * 1024 * MIB,
      'Payload bytes of deliveries one node holds for its consume streams together, leased and loaded or written and not yet sent (each stream is also bounded by its prefetch): near it the leader leases and pushes no more until streams drain; what is already leased waits (fermata_consume_held_deliveries). Sized for the 1 GiB memory limit of the Kubernetes manifests.',
    ),
    maxHttpBodyBytes: int(
      64 * MIB,
      1 * MIB,
      64 * 1024 * MIB,
      'Bytes of request bodies of the HTTP API (/v1) one node holds at once, being read or read and not yet answered; past it a request is refused with 429 and Retry-After before more of its body is read. Each body is also bounded by its own limit (docs/api.md, "HTTP API"), the largest of which (maxJsonBodyBytes: limits.maxBatchPayloadBytes in base64 plus 4 MiB) it must not be below.',
    ),
    maxConsumersPerGroup: int(1_000, 1, 100_000, 'Consumer streams subscribed to one group on the leader.'),
    maxStreamsPerConnection: int(100, 1, 100_000, 'Concurrent gRPC streams on one client connection.'),
    maxConnections: int(
      4_096,
      1,
      1_000_000,
      'Client connections open at once on one node; more are closed on arrival (logged).',
    ),
    handshakeTimeoutMs: int(
      10 * SECOND_MS,
      100,
      10 * 60 * SECOND_MS,
      'A client connection must make its first authenticated call (TLS and HTTP/2 handshakes, then a call with a valid token; any call but a health check with authentication off) within this of arriving, or it is closed.',
    ),
    maxPendingConnections: int(
      1_024,
      1,
      1_000_000,
      'Client connections that have not yet made an authenticated call, at once on one node; a new one closes the oldest of them (logged), so that a client with a token always gets its turn.',
    ),
    maxPendingConnectionsPerAddress: int(
      128,
      1,
      1_000_000,
      'Client connections from one source IP address that have not yet made an authenticated call; more are closed on arrival (logged). Authenticated connections count only against limits.maxConnections.',
    ),
    maxConnectionIdleMs: int(
      10 * 60 * SECOND_MS,
      1 * SECOND_MS,
      24 * 60 * 60 * SECOND_MS,
      'A client connection with no call open for this long is closed (the SDK reconnects when needed).',
    ),
    allowLeaderDurability: bool(
      false,
      'Accept DURABILITY_LEADER publishes (may be lost on failover); refused (FAILED_PRECONDITION) otherwise.',
    ),
  },
  topics: {
    autoCreate: bool(
      false,
      'A publish (or a schedule) naming a topic that does not exist creates it with default settings. Off: topics are created explicitly (CreateTopic, `fermata topics create`), and a publish to an unknown topic is refused (NOT_FOUND) with the names closest to it, so a mistyped producer does not fill a topic nobody reads. Consuming never creates a topic or a group. Every node should have the same value (the leader applies its own).',
    ),
  },
  auth: {
    tokensFile: fileKey(
      'YAML file of bearer tokens (name, sha256, publish/consume/admin/read topic patterns, monitor, limits); empty = authentication off.',
    ),
    tokenLimits: {
      schedules: int(
        1_000,
        0,
        100_000_000,
        'Schedules one token may have created that exist (a token’s `limits.schedules` in the tokens file overrides it; 0 = none). Past it an upsert is refused RESOURCE_EXHAUSTED maxSchedulesPerToken.',
      ),
      publishPerSecond: int(
        10_000,
        0,
        100_000_000,
        'Messages a second one token may publish, on the leader, with a burst of one second’s worth (token file `limits.publishPerSecond`; 0 = none). Past it a publish is refused RESOURCE_EXHAUSTED publishPerSecondPerToken before it is queued.',
      ),
      streams: int(
        100,
        0,
        1_000_000,
        'Consume streams one token may have open at once on a node (token file `limits.streams`; 0 = none). Past it a subscribe is refused RESOURCE_EXHAUSTED maxStreamsPerToken.',
      ),
    },
  },
  credentialsReloadIntervalMs: int(
    5 * SECOND_MS,
    0,
    60 * 60 * SECOND_MS,
    'How often TLS certificate, key, CA and token files are checked for changes (0 = never); changes apply to new connections and calls.',
  ),
  shutdown: {
    graceMs: int(
      10 * SECOND_MS,
      0,
      10 * 60 * SECOND_MS,
      'On SIGTERM: time to transfer leadership, end streams and flush before exiting.',
    ),
  },
  logLevel: enumOf(LOG_LEVELS, 'info', 'Level of the JSON log lines on stdout.'),
} as const satisfies SchemaSection;

type ValueOf<S extends KeySpec> = S extends IntSpec
  ? number
  : S extends BoolSpec
    ? boolean
    : S extends EnumSpec<infer V>
      ? V
      : S extends MembersSpec
        ? readonly InitialMember[]
        : string;

/** The typed, frozen configuration object `loadConfig` returns. */
export type ConfigOf<S extends SchemaSection> = {
  readonly [K in keyof S]: S[K] extends KeySpec
    ? ValueOf<S[K]>
    : S[K] extends SchemaSection
      ? ConfigOf<S[K]>
      : never;
};

export type FermataConfig = ConfigOf<typeof configSchema>;

type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends readonly unknown[]
    ? T[K] | string
    : T[K] extends object
      ? DeepPartial<T[K]>
      : T[K];
};
/** Overrides have the YAML shape; members may be given as a list or a comma-separated string. */
export type ConfigOverrides = DeepPartial<FermataConfig>;

export function isKeySpec(node: KeySpec | SchemaSection): node is KeySpec {
  return typeof (node as { kind?: unknown }).kind === 'string';
}

export interface SchemaEntry {
  /** Dotted path, e.g. `raft.tickMs`. */
  readonly path: string;
  readonly env: string;
  readonly spec: KeySpec;
}

/** `raft.tickMs` -> `FERMATA_RAFT__TICK_MS`: camelCase words joined by `_`, sections by `__`. */
export function envName(path: string): string {
  return `FERMATA_${path
    .split('.')
    .map((seg) => seg.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase())
    .join('__')}`;
}

/** Every key of the schema in declaration order. */
export function schemaEntries(section: SchemaSection = configSchema, prefix = ''): SchemaEntry[] {
  const out: SchemaEntry[] = [];
  for (const [key, node] of Object.entries(section)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isKeySpec(node)) out.push({ path, env: envName(path), spec: node });
    else out.push(...schemaEntries(node, path));
  }
  return out;
}
