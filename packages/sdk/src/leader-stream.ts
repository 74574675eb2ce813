import type * as grpc from '@grpc/grpc-js';
import { type Connection, Unreached } from './connection.js';
import {
  ClosedError,
  ConnectError,
  type FermataError,
  isPermanent,
  isRetryable,
  toFermataError,
  UnavailableError,
} from './errors.js';

/**
 * The one rule for a stream that ended: it is opened again (to the leader the
 * error named, or after the next discovery) unless the client closed or the
 * server refused the request itself (`isPermanent`). What waits on the stream
 * is bounded by the owner's own deadlines, not by this rule.
 */
export function reopensAfter(err: FermataError): boolean {
  return !(err instanceof ClosedError) && !isPermanent(err);
}

export interface LeaderStreamOwner<Req, Res> {
  /** Opens the call on `address`; the stream wires its events. */
  open(address: string): grpc.ClientDuplexStream<Req, Res>;
  /** A new call is open (nothing read yet): write what it must carry first. */
  opened(call: grpc.ClientDuplexStream<Req, Res>, address: string): void;
  /** A response of the current call; a throw ends the call as unreadable. */
  data(res: Res, address: string): void;
  /**
   * The current call ended with `err` and is gone; `final` when it will not be
   * opened again (reopensAfter is false): fail what waited on it.
   */
  ended(err: FermataError, final: boolean): void;
  /** Whether a call is still needed (work waits, the owner runs); asked before each reopen. */
  wanted(): boolean;
}

/**
 * One long-lived gRPC stream to the leader, shared by the producer and the
 * subscriptions: finds the leader, opens the call, follows a redirect to a
 * new leader at once (the first time in a row), and otherwise reopens after
 * the client's jittered backoff (reset by `healthy()`). Events of a call that
 * was replaced are ignored.
 */
export class LeaderStream<Req, Res> {
  private current: grpc.ClientDuplexStream<Req, Res> | undefined;
  private gen = 0;
  private connecting = false;
  private timer: NodeJS.Timeout | undefined;
  private attempt = 0;
  private lastWasRedirect = false;
  private stopped = false;
  /** Since when this stream has been trying to reach a node (reset by `healthy()` and by each report). */
  private reachingSince: number | undefined;

  constructor(
    private readonly conn: Connection,
    /** For messages: `publish`, `consume`. */
    private readonly name: string,
    private readonly owner: LeaderStreamOwner<Req, Res>,
  ) {}

  /** The open call, if any. */
  get call(): grpc.ClientDuplexStream<Req, Res> | undefined {
    return this.current;
  }

  /** Opens a call unless one is open, being opened or scheduled. */
  open(): void {
    if (this.stopped || this.current !== undefined || this.connecting || this.timer !== undefined) return;
    this.connecting = true;
    void this.connect();
  }

  /** The call proved useful (an answer, a subscription): the next failure starts the backoff afresh. */
  healthy(): void {
    this.attempt = 0;
    this.lastWasRedirect = false;
    this.reachingSince = undefined;
  }

  /**
   * Ends the current call with `err` from the owner's side (an answer it
   * cannot use, a retryable refusal); `final`: never reopen (else the rule).
   */
  fail(address: string | undefined, err: FermataError, final = !reopensAfter(err)): void {
    this.end();
    this.owner.ended(err, final);
    if (final || this.stopped) return;
    const redirected = address !== undefined && this.conn.noteFailure(address, err);
    const waitMs = redirected && !this.lastWasRedirect ? 0 : this.conn.backoffMs(++this.attempt);
    this.lastWasRedirect = redirected;
    if (!this.owner.wanted()) return;
    const log =
      isRetryable(err) && !(err instanceof ConnectError)
        ? this.conn.config.logger.debug
        : this.conn.config.logger.warn;
    log(`${this.name} stream ended; reopening`, { error: err.message, waitMs });
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.owner.wanted()) this.open();
    }, waitMs);
  }

  /** Drops the current call without reopening it (its replacement, if any, comes from `open`). */
  end(): void {
    const call = this.current;
    this.current = undefined;
    this.gen++;
    if (call !== undefined) {
      call.end();
      call.cancel();
    }
  }

  /** Ends the call and never opens another. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.end();
  }

  private async connect(): Promise<void> {
    let address: string;
    this.reachingSince ??= Date.now();
    const since = Math.max(this.reachingSince, this.conn.lastAnsweredAtMs ?? 0);
    const connectBy = since + this.conn.config.connectTimeoutMs;
    try {
      if (!this.owner.wanted()) return;
      address = await this.conn.leader(Date.now() + this.conn.config.deadlineMs, connectBy);
    } catch (e) {
      if (e instanceof Unreached && (e.definitive || Date.now() >= connectBy - 20)) {
        // No endpoint answered for connectTimeoutMs: say why, then go on trying unless it cannot help.
        const err = await this.conn.explain(e, Date.now() - since);
        this.reachingSince = Date.now();
        if (!this.stopped) this.fail(undefined, err, e.definitive);
        return;
      }
      this.fail(undefined, toFermataError(e));
      return;
    } finally {
      this.connecting = false;
    }
    if (this.stopped || !this.owner.wanted()) return;
    const gen = ++this.gen;
    const call = this.owner.open(address);
    this.current = call;
    call.on('data', (res: Res) => {
      if (gen !== this.gen) return;
      try {
        this.owner.data(res, address);
      } catch (e) {
        // A response the SDK cannot read: drop this call and start over rather than crash.
        if (gen === this.gen) {
          this.fail(address, new UnavailableError(`bad ${this.name} response: ${toFermataError(e).details}`));
        }
      }
    });
    call.on('error', (e) => {
      if (gen === this.gen) this.fail(address, toFermataError(e));
    });
    call.on('end', () => {
      if (gen === this.gen)
        this.fail(address, new UnavailableError(`the server ended the ${this.name} stream`));
    });
    this.owner.opened(call, address);
  }
}
