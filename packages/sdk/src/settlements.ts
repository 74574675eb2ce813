import { type pb, toBigInt, toInt64, toUint64, v1 } from '@fermata/protocol';
import { status } from '@grpc/grpc-js';
import { type Connection, unary } from './connection.js';
import {
  ClosedError,
  errorFromStatus,
  FermataError,
  isRetryable,
  LeaseExpiredError,
  toFermataError,
} from './errors.js';

/** Most tags in one coalesced ack request (the server's `limits.maxTagsPerCommand` default). */
export const MAX_ACK_TAGS = 1_000;

type SettleKind = 'ack' | 'nack' | 'extend';

/** What a settle answers when it took effect. */
export type Outcome = pb.SettleOutcome.$Properties;

/** The part of a Consume stream settlements write to. */
export interface SettleStream {
  write(request: pb.ConsumeRequest.$Properties): unknown;
}

interface Waiter {
  tag: Uint8Array;
  resolve: (o: Outcome) => void;
  reject: (e: FermataError) => void;
}

interface SettleRequest {
  id: number;
  kind: SettleKind;
  waiters: Waiter[];
  delayMs: number;
  leaseMs: number;
  /** A nack's error text ('' = none). */
  error: string;
}

function hex(tag: Uint8Array): string {
  return Buffer.from(tag.buffer, tag.byteOffset, tag.byteLength).toString('hex');
}

/**
 * Acks, nacks and extends of one subscription: over its Consume stream while
 * one is subscribed (matched to their results by request id), otherwise as
 * unary calls with the client's retries. Acks issued in the same tick travel
 * as one request. What a lost stream never answered is sent again as unary
 * calls (a retried settle that had taken effect answers "lease expired").
 */
export class Settlements {
  private readonly conn: Connection;
  private stream: SettleStream | undefined;
  private readonly pending = new Map<number, SettleRequest>();
  private readonly outstanding = new Set<Promise<unknown>>();
  private ackBatch: SettleRequest | undefined;
  private nextRequestId = 1;
  private closed = false;

  constructor(conn: Connection) {
    this.conn = conn;
  }

  /** Settlements go over `stream` from now on. */
  useStream(stream: SettleStream): void {
    this.stream = stream;
  }

  /** The stream is gone: what it never answered, and what comes next, goes out as unary calls. */
  dropStream(): void {
    this.stream = undefined;
    for (const req of [...this.pending.values()]) {
      this.pending.delete(req.id);
      this.sendUnary(req);
    }
  }

  /** Resolves with the outcome when it took effect; rejects with LeaseExpiredError or the call's error. */
  request(kind: SettleKind, tag: Uint8Array, delayMs: number, leaseMs: number, error = ''): Promise<Outcome> {
    if (this.closed) return Promise.reject(new ClosedError('the subscription is closed'));
    return this.track(
      new Promise<Outcome>((resolve, reject) => {
        const waiter: Waiter = { tag, resolve, reject };
        if (kind !== 'ack') {
          this.send({ id: this.nextRequestId++, kind, waiters: [waiter], delayMs, leaseMs, error });
          return;
        }
        if (this.ackBatch === undefined) {
          const batch: SettleRequest = {
            id: this.nextRequestId++,
            kind,
            waiters: [],
            delayMs: 0,
            leaseMs: 0,
            error: '',
          };
          this.ackBatch = batch;
          setImmediate(() => {
            if (this.ackBatch === batch) this.ackBatch = undefined;
            this.send(batch);
          });
        }
        this.ackBatch.waiters.push(waiter);
        if (this.ackBatch.waiters.length >= MAX_ACK_TAGS) this.ackBatch = undefined;
      }),
    );
  }

  /** Counts `p` among the settlements `idle()` waits for. */
  track<T>(p: Promise<T>): Promise<T> {
    this.outstanding.add(p);
    const forget = () => this.outstanding.delete(p);
    p.then(forget, forget);
    return p;
  }

  /** Resolves once every settlement issued so far has an answer (after this tick's acks went out). */
  async idle(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.allSettled([...this.outstanding]);
  }

  /** A `result` from the stream. */
  onResult(result: pb.SettleResult.$Properties): void {
    const id = Number(toBigInt(result.requestId));
    const req = this.pending.get(id);
    if (req === undefined) {
      this.conn.config.logger.debug('settle result for an unknown request', { requestId: id });
      return;
    }
    this.pending.delete(id);
    if (result.error) {
      const err = errorFromStatus({
        code: result.error.code ?? status.UNKNOWN,
        details: result.error.message ?? '',
        field: result.error.field ?? undefined,
        leaderAddress: result.error.leaderAddress ?? undefined,
      });
      if (isRetryable(err)) this.sendUnary(req);
      else for (const w of req.waiters) w.reject(err);
      return;
    }
    this.resolve(req, result.outcomes ?? []);
  }

  /** Refuses new settlements and fails those still waiting for an answer. */
  close(): void {
    this.closed = true;
    this.stream = undefined;
    for (const req of this.pending.values()) {
      for (const w of req.waiters)
        w.reject(new ClosedError('the subscription closed before the server answered'));
    }
    this.pending.clear();
  }

  private send(req: SettleRequest): void {
    if (this.stream === undefined) {
      this.sendUnary(req);
      return;
    }
    this.pending.set(req.id, req);
    const requestId = toUint64(BigInt(req.id));
    const tag = req.waiters[0]!.tag;
    if (req.kind === 'ack') this.stream.write({ ack: { tags: req.waiters.map((w) => w.tag), requestId } });
    else if (req.kind === 'nack')
      this.stream.write({
        nack: { tag, delayMs: toInt64(BigInt(req.delayMs)), requestId, error: req.error },
      });
    else this.stream.write({ extend: { tag, leaseMs: toInt64(BigInt(req.leaseMs)), requestId } });
  }

  private sendUnary(req: SettleRequest): void {
    const tag = req.waiters[0]!.tag;
    const outcomes = this.conn.call<Outcome[]>(req.kind, ({ stubs, metadata, options }) => {
      if (req.kind === 'ack') {
        const tags = req.waiters.map((w) => w.tag);
        return unary<pb.AckResponse>((cb) => stubs.broker.ack({ tags }, metadata, options, cb)).then(
          (r) => r.outcomes,
        );
      }
      if (req.kind === 'nack') {
        const delayMs = toInt64(BigInt(req.delayMs));
        return unary<pb.NackResponse>((cb) =>
          stubs.broker.nack({ tag, delayMs, error: req.error }, metadata, options, cb),
        ).then((r) => (r.outcome ? [r.outcome] : []));
      }
      const leaseMs = toInt64(BigInt(req.leaseMs));
      return unary<pb.ExtendResponse>((cb) =>
        stubs.broker.extend({ tag, leaseMs }, metadata, options, cb),
      ).then((r) => (r.outcome ? [r.outcome] : []));
    });
    outcomes.then(
      (o) => this.resolve(req, o),
      (e) => {
        for (const w of req.waiters) w.reject(toFermataError(e));
      },
    );
  }

  private resolve(req: SettleRequest, outcomes: Outcome[]): void {
    const byTag = new Map<string, Outcome>();
    for (const o of outcomes) if (o.tag && o.tag.byteLength > 0) byTag.set(hex(o.tag), o);
    for (const w of req.waiters) {
      // A server may leave the tag out of a single outcome.
      const o =
        byTag.get(hex(w.tag)) ??
        (req.waiters.length === 1 && outcomes.length === 1 ? outcomes[0] : undefined);
      if (o === undefined) {
        w.reject(new FermataError(status.INTERNAL, `the server answered no outcome for a ${req.kind} tag`));
      } else if (o.status === v1.SettleStatus.SETTLE_STATUS_OK) {
        w.resolve(o);
      } else if (o.status === v1.SettleStatus.SETTLE_STATUS_LEASE_EXPIRED) {
        w.reject(new LeaseExpiredError(w.tag));
      } else {
        w.reject(new FermataError(status.INTERNAL, `unknown settle status ${o.status} for a ${req.kind}`));
      }
    }
  }
}
