import {
  type AdminClient,
  type BrokerClient,
  type ClusterClient,
  clientFlowControlOptions,
  makeClient,
  type SchedulesClient,
} from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import { type BackoffPolicy, backoffDelayMs } from './backoff.js';
import { diagnoseEndpoint } from './endpoint-diagnosis.js';
import {
  ClosedError,
  ConnectError,
  DeadlineExceededError,
  type FermataError,
  isRetryable,
  leaderHint,
  NotLeaderError,
  toFermataError,
  UnavailableError,
} from './errors.js';
import type { Logger, TlsOptions } from './options.js';

/** The three typed stubs for one node. */
export interface Stubs {
  address: string;
  broker: BrokerClient;
  admin: AdminClient;
  cluster: ClusterClient;
  schedules: SchedulesClient;
}

/** Per-call settings the connection hands to an operation. */
export interface CallContext {
  stubs: Stubs;
  metadata: grpc.Metadata;
  options: grpc.CallOptions;
}

export interface ConnectionConfig {
  endpoints: string[];
  tls: boolean | TlsOptions | undefined;
  token: string | undefined;
  deadlineMs: number;
  /** How long no endpoint may answer before a call (or stream) fails with ConnectError. */
  connectTimeoutMs: number;
  retry: BackoffPolicy;
  discoveryTimeoutMs: number;
  /** Longest single attempt of a unary call; absent = the whole budget. */
  attemptTimeoutMs?: number;
  channelOptions: grpc.ChannelOptions;
  logger: Logger;
  random: () => number;
}

/** Longest wait for one endpoint's HTTP answer while explaining why it is not a client port. */
const PROBE_TIMEOUT_MS = 1_000;

/**
 * No endpoint answered as a Fermata node in one discovery round; `failures`
 * hold gRPC's raw errors, explained (`explain`) once the client gives up.
 */
class Unreached extends UnavailableError {
  constructor(readonly failures: ReadonlyArray<{ endpoint: string; error: FermataError }>) {
    super(`no node answered; asked ${failures.map((f) => `${f.endpoint}: ${f.error.details}`).join('; ')}`);
  }

  /** Retrying cannot help: every endpoint is something else than a client port (HTTP, peer, a URL). */
  get definitive(): boolean {
    return this.failures.every(
      (f) =>
        f.error.code === grpc.status.UNIMPLEMENTED ||
        (f.error.code !== grpc.status.DEADLINE_EXCEEDED &&
          /Protocol error|HTTP status code/.test(f.error.details)),
    );
  }
}

/** Metadata key a call to the leader itself sends: a node that no longer leads redirects instead of forwarding. */
export const DIRECT_METADATA_KEY = 'fermata-direct';

/** grpc-js's words for a name that does not resolve. */
const NAME_NOT_RESOLVED = /Name resolution failed|ENOTFOUND|EAI_AGAIN/;

/** The address could not be connected to (no Fermata answer at all). */
function unreachable(e: FermataError): boolean {
  return (
    e instanceof UnavailableError &&
    !(e instanceof NotLeaderError) &&
    /No connection established|Name resolution failed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|Failed to connect/i.test(
      e.details,
    )
  );
}

/** A node answered: a Fermata server (not a transport failure, nor another kind of server). */
function answeredAsNode(e: FermataError | undefined): boolean {
  if (e === undefined) return true;
  if (e instanceof NotLeaderError) return true;
  return (
    e.code === grpc.status.UNAUTHENTICATED ||
    e.code === grpc.status.PERMISSION_DENIED ||
    e.code === grpc.status.RESOURCE_EXHAUSTED ||
    e.code === grpc.status.FAILED_PRECONDITION
  );
}

/** An attempt is not started with less than this left of the call's budget. */
const MIN_ATTEMPT_BUDGET_MS = 20;
/** A node waiting for a leader answers this long before the discovery's deadline, so the answer arrives. */
const LEADER_WAIT_MARGIN_MS = 200;

function toBuffer(v: string | Uint8Array | undefined): Buffer | null {
  if (v === undefined) return null;
  return typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v);
}

/** Channel credentials for the client's TLS setting. */
export function channelCredentials(tls: boolean | TlsOptions | undefined): grpc.ChannelCredentials {
  if (tls === undefined || tls === false) return grpc.credentials.createInsecure();
  if (tls === true) return grpc.credentials.createSsl();
  if ((tls.cert === undefined) !== (tls.key === undefined)) {
    throw new RangeError('tls.cert and tls.key must be given together (mutual TLS)');
  }
  return grpc.credentials.createSsl(toBuffer(tls.ca), toBuffer(tls.key), toBuffer(tls.cert));
}

/**
 * Channels to the nodes, the known leader, and the retry loop every unary call
 * goes through. Streams (publish, consume) use `leader()` and `noteFailure()`
 * and run their own reconnect loops.
 */
export { Unreached };

export class Connection {
  readonly config: ConnectionConfig;
  private readonly credentials: grpc.ChannelCredentials;
  private readonly channelOptions: grpc.ChannelOptions;
  private readonly stubsByAddress = new Map<string, Stubs>();
  private knownLeader: string | undefined;
  /** The leader this client last failed to reach (until a discovery names one). */
  private unreachableLeader: string | undefined;
  private discovery: Promise<string> | undefined;
  private readonly abort = new AbortController();
  /** When an endpoint last answered as a Fermata node (never: undefined). */
  private answeredAtMs: number | undefined;
  /** The node that named `knownLeader` (discovery or a redirect): it answered, so it is reachable. */
  private via: string | undefined;
  /**
   * Leader addresses this client cannot reach itself (a name only the
   * cluster resolves, behind a port-forward or a load balancer): calls go to
   * `via`, which forwards them to the leader.
   */
  private readonly indirect = new Set<string>();
  /** The leader whose direct path failed at the transport level, until the next discovery names a leader. */
  private directFailed: string | undefined;

  constructor(config: ConnectionConfig) {
    if (config.endpoints.length === 0) throw new RangeError('endpoints must name at least one node');
    this.config = config;
    this.credentials = channelCredentials(config.tls);
    const serverName = typeof config.tls === 'object' ? config.tls.serverName : undefined;
    this.channelOptions = {
      // Pings on open calls, so a stream to a node that vanished without a reset is noticed within ~40 s.
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_timeout_ms': 10_000,
      ...clientFlowControlOptions,
      ...(serverName ? { 'grpc.ssl_target_name_override': serverName } : {}),
      ...config.channelOptions,
    };
  }

  get closed(): boolean {
    return this.abort.signal.aborted;
  }

  /** The signal that fires when the client closes. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** When an endpoint last answered as a Fermata node (epoch ms), if ever. */
  get lastAnsweredAtMs(): number | undefined {
    return this.answeredAtMs;
  }

  /** The leader as last learned, if any. */
  get leaderAddress(): string | undefined {
    return this.knownLeader;
  }

  stubs(address: string): Stubs {
    let s = this.stubsByAddress.get(address);
    if (s === undefined) {
      const cluster = makeClient('Cluster', address, this.credentials, this.channelOptions);
      // All three share one channel, so one connection per node.
      const shared = { channelOverride: cluster.getChannel() };
      s = {
        address,
        cluster,
        broker: makeClient('Broker', address, this.credentials, { ...this.channelOptions, ...shared }),
        admin: makeClient('Admin', address, this.credentials, { ...this.channelOptions, ...shared }),
        schedules: makeClient('Schedules', address, this.credentials, { ...this.channelOptions, ...shared }),
      };
      this.stubsByAddress.set(address, s);
    }
    return s;
  }

  /**
   * Fresh call metadata (grpc-js mutates it per call), with the bearer token.
   * A call to the leader's own address asks to be redirected if that node no
   * longer leads (`fermata-direct`), so the client learns the new leader;
   * one sent through another node lets that node forward it.
   */
  metadata(address?: string): grpc.Metadata {
    const md = new grpc.Metadata();
    if (this.config.token !== undefined) md.set('authorization', `Bearer ${this.config.token}`);
    if (address !== undefined && address === this.knownLeader) md.set(DIRECT_METADATA_KEY, '1');
    return md;
  }

  /** Where calls for the leader go: the leader, or the node that forwards to it when it is out of reach. */
  private route(): string | undefined {
    const leader = this.knownLeader;
    if (leader !== undefined && this.indirect.has(leader) && this.via !== undefined && this.via !== leader)
      return this.via;
    return leader;
  }

  /**
   * Resolves to the leader's address, asking the endpoints when it is not
   * known; an ask waits no later than `connectBy` while no endpoint answers
   * (then it rejects with an `Unreached` error).
   */
  leader(deadlineAt: number, connectBy = Number.POSITIVE_INFINITY): Promise<string> {
    if (this.closed) return Promise.reject(new ClosedError('the client is closed'));
    const route = this.route();
    if (route !== undefined) return Promise.resolve(route);
    if (this.discovery === undefined) {
      this.discovery = this.discover(deadlineAt, connectBy).finally(() => {
        this.discovery = undefined;
      });
      return this.discovery;
    }
    // A discovery started for another call may wait longer for a leader than this call may.
    const discovery = this.discovery;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new DeadlineExceededError('no leader found within the call deadline')),
        Math.max(0, deadlineAt - Date.now()),
      );
      discovery.then(
        (address) => {
          clearTimeout(timer);
          resolve(address);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  /**
   * Asks every endpoint at once; the first that names a leader wins (a stale
   * answer is corrected by a redirect). A node that knows no leader, or only
   * the one this client just failed to reach, answers once it knows another
   * (`wait_for_leader_ms`, most of the time left for the ask): during a
   * failover the new leader is learned as soon as it is elected, not at the
   * next retry of a growing backoff.
   */
  private discover(deadlineAt: number, connectBy: number): Promise<string> {
    const { endpoints, discoveryTimeoutMs } = this.config;
    // While no endpoint answers, an ask waits no later than the connect timeout.
    const cap = connectBy > Date.now() ? connectBy : Number.POSITIVE_INFINITY;
    const perNodeDeadlineMs = Math.min(deadlineAt, Date.now() + discoveryTimeoutMs, cap);
    const perNodeDeadline = new Date(perNodeDeadlineMs);
    const request = {
      waitForLeaderMs: Math.max(0, Math.floor(perNodeDeadlineMs - Date.now() - LEADER_WAIT_MARGIN_MS)),
      unreachableLeaderAddress: this.unreachableLeader ?? '',
    };
    return new Promise<string>((resolve, reject) => {
      let pending = endpoints.length;
      const failures: string[] = [];
      const unreached: Array<{ endpoint: string; error: FermataError }> = [];
      let settled = false;
      for (const endpoint of endpoints) {
        this.stubs(endpoint).cluster.getClusterInfo(
          request,
          this.metadata(),
          { deadline: perNodeDeadline },
          (err, res) => {
            pending--;
            const fe = err === null ? undefined : toFermataError(err);
            if (answeredAsNode(fe)) this.answeredAtMs = Date.now();
            if (settled) return;
            if (err === null && res !== undefined && res.leaderAddress !== '') {
              settled = true;
              this.knownLeader = res.leaderAddress;
              this.unreachableLeader = undefined;
              this.via = endpoint;
              // Named again after its direct path failed: it leads, but not within this client's reach.
              if (this.directFailed === res.leaderAddress && endpoint !== res.leaderAddress)
                this.goIndirect(res.leaderAddress);
              this.directFailed = undefined;
              this.config.logger.debug('leader discovered', { leader: res.leaderAddress, via: endpoint });
              resolve(this.route()!);
              return;
            }
            if (
              fe !== undefined &&
              answeredAsNode(fe) &&
              !isRetryable(fe) &&
              fe.code !== grpc.status.DEADLINE_EXCEEDED
            ) {
              // Authentication or permission problems will not go away by retrying.
              settled = true;
              reject(fe);
              return;
            }
            failures.push(`${endpoint}: ${fe ? fe.details : 'no leader'}`);
            if (fe !== undefined && !answeredAsNode(fe)) unreached.push({ endpoint, error: fe });
            if (pending === 0) {
              settled = true;
              reject(
                unreached.length === endpoints.length
                  ? new Unreached(
                      unreached.sort((a, b) => endpoints.indexOf(a.endpoint) - endpoints.indexOf(b.endpoint)),
                    )
                  : new UnavailableError(`no leader known; asked ${failures.join('; ')}`),
              );
            }
          },
        );
      }
    });
  }

  /**
   * Records that a call to `address` failed with `err`. Returns true when the
   * error named a different leader, which is worth trying at once.
   */
  noteFailure(address: string, err: FermataError): boolean {
    const hint = err instanceof NotLeaderError ? (err.leaderAddress ?? leaderHint(err)) : undefined;
    if (hint !== undefined && hint !== address) {
      this.knownLeader = hint;
      this.via = address;
      this.unreachableLeader = undefined;
      this.config.logger.debug('redirected to the leader', { from: address, leader: hint });
      return true;
    }
    if (address !== this.knownLeader && address === this.via) {
      // The node forwarding for us failed: find the leader (and a way to it) again.
      this.knownLeader = undefined;
      this.via = undefined;
      return false;
    }
    if (this.knownLeader === address && unreachable(err)) {
      if (NAME_NOT_RESOLVED.test(err.details) && this.via !== undefined && this.via !== address) {
        // A name only the cluster resolves: its leader stays, reached through the node that named it.
        this.goIndirect(address);
        return true;
      }
      // Perhaps it died: the next discovery waits for another leader, and if it names this one
      // again, it is out of this client's reach (goIndirect).
      this.directFailed = address;
    }
    if (this.knownLeader === address) {
      this.knownLeader = undefined;
      // The leader itself failed: the next discovery waits for another one.
      if (err instanceof UnavailableError || err instanceof DeadlineExceededError)
        this.unreachableLeader = address;
    }
    return false;
  }

  /** Forgets the leader, so the next call asks the endpoints again. */
  forgetLeader(): void {
    this.knownLeader = undefined;
  }

  private goIndirect(leader: string): void {
    if (this.indirect.has(leader)) return;
    this.indirect.add(leader);
    this.config.logger.warn('the leader is out of reach from here; calls go through the node that named it', {
      leader,
      via: this.via,
    });
  }

  /** Waits `ms`, or rejects with ClosedError when the client closes. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new ClosedError('the client is closed'));
      const onAbort = () => {
        clearTimeout(timer);
        reject(new ClosedError('the client is closed'));
      };
      const timer = setTimeout(() => {
        this.abort.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      this.abort.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The retry wait after `attempt` failures in a row (1-based). */
  backoffMs(attempt: number): number {
    return backoffDelayMs(this.config.retry, attempt, this.config.random());
  }

  /**
   * Runs `op` against the leader, retrying on not-leader and unavailable with
   * jittered exponential backoff until `deadlineMs` has passed. A redirect to a
   * new leader is followed at once. Other errors are thrown typed.
   */
  async call<T>(name: string, op: (ctx: CallContext) => Promise<T>, deadlineMs?: number): Promise<T> {
    const startedAt = Date.now();
    const deadlineAt = startedAt + (deadlineMs ?? this.config.deadlineMs);
    let lastError: FermataError | undefined;
    let backoffAttempt = 0;
    let lastWasRedirect = false;
    for (let attempt = 1; ; attempt++) {
      let redirected = false;
      let address: string | undefined;
      // No endpoint answering for connectTimeoutMs (since this call started, or a node last did) ends the call.
      const connectBy = Math.max(startedAt, this.answeredAtMs ?? 0) + this.config.connectTimeoutMs;
      try {
        address = await this.leader(deadlineAt, connectBy);
        const attemptEndsAt = Math.min(deadlineAt, Date.now() + (this.config.attemptTimeoutMs ?? deadlineAt));
        try {
          const result = await op({
            stubs: this.stubs(address),
            metadata: this.metadata(address),
            options: { deadline: new Date(attemptEndsAt) },
          });
          this.answeredAtMs = Date.now();
          return result;
        } catch (e) {
          const err = toFermataError(e);
          if (answeredAsNode(err) || !isRetryable(err)) this.answeredAtMs = Date.now();
          // An attempt cut short while budget remains: the node did not answer in time (frozen,
          // partitioned). Forget it as leader and try again like an unavailable node.
          if (err instanceof DeadlineExceededError && attemptEndsAt < deadlineAt) {
            throw new UnavailableError(`${address} did not answer within ${attemptEndsAt - startedAt} ms`, {
              cause: err,
            });
          }
          throw err;
        }
      } catch (e) {
        if (e instanceof Unreached && (e.definitive || Date.now() >= connectBy - MIN_ATTEMPT_BUDGET_MS)) {
          throw await this.explain(e, Date.now() - Math.max(startedAt, this.answeredAtMs ?? 0));
        }
        const err = toFermataError(e);
        if (err instanceof DeadlineExceededError && lastError !== undefined) {
          // The last attempt ran into the budget: say what kept the earlier ones from succeeding.
          throw new DeadlineExceededError(
            `${name}: no success within ${deadlineAt - startedAt} ms (${attempt} attempts); before the last: ${lastError.message}`,
            { cause: lastError },
          );
        }
        if (!isRetryable(err) || this.closed) throw err;
        // A failed discovery (often cut short by the deadline) says less than an error from the call itself.
        if (address !== undefined || lastError === undefined) lastError = err;
        if (address !== undefined) redirected = this.noteFailure(address, err);
      }
      // Follow a redirect at once, but not twice in a row: two nodes naming each other must not spin.
      let waitMs = 0;
      if (!(redirected && !lastWasRedirect)) waitMs = this.backoffMs(++backoffAttempt);
      // While no node answers, the next ask is not put off past the connect timeout.
      if (lastError instanceof Unreached) waitMs = Math.max(0, Math.min(waitMs, connectBy - Date.now()));
      lastWasRedirect = redirected;
      // An attempt started with almost no budget left could only time out.
      if (Date.now() + waitMs + MIN_ATTEMPT_BUDGET_MS >= deadlineAt) {
        this.config.logger.debug('giving up', { call: name, attempts: attempt, error: lastError.message });
        if (lastError instanceof Unreached) throw await this.explain(lastError, Date.now() - startedAt);
        throw lastError;
      }
      this.config.logger.debug('retrying', { call: name, attempt, waitMs, error: lastError.message });
      await this.sleep(waitMs);
    }
  }

  /**
   * The ConnectError for endpoints none of which answered as a node: each
   * named with why, in words that name the fix (`endpoint-diagnosis.ts`).
   */
  async explain(e: Unreached, waitedMs: number): Promise<ConnectError> {
    const endpoints = await Promise.all(
      e.failures.map(async (f) => ({
        endpoint: f.endpoint,
        reason: await diagnoseEndpoint(f.endpoint, f.error, this.config.connectTimeoutMs, PROBE_TIMEOUT_MS),
      })),
    );
    return new ConnectError(
      `cannot reach the cluster: no endpoint answered as a Fermata client port within ${Math.max(waitedMs, 0)} ms (connectTimeoutMs ${this.config.connectTimeoutMs}): ${endpoints.map((x) => `${x.endpoint}: ${x.reason}`).join('; ')}`,
      endpoints,
      { cause: e },
    );
  }

  /** Closes every channel; waiting calls fail with ClosedError. */
  close(): void {
    if (this.closed) return;
    this.abort.abort();
    for (const s of this.stubsByAddress.values()) s.cluster.close();
    this.stubsByAddress.clear();
  }
}

/** Promisifies one grpc-js unary call. */
export function unary<Res>(
  start: (callback: (err: grpc.ServiceError | null, res?: Res) => void) => unknown,
): Promise<Res> {
  return new Promise<Res>((resolve, reject) => {
    start((err, res) => {
      if (err !== null) reject(toFermataError(err));
      else if (res === undefined) reject(new Error('grpc call returned neither an error nor a response'));
      else resolve(res);
    });
  });
}
