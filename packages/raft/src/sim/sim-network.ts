/**
 * The simulated peer network: delays, loss, duplication, stragglers and
 * partitions, all from the run's PRNG. Each node talks to it through a
 * SimTransport (the driver's Transport port). What one `send` hands over for
 * one peer travels as one batch (delayed, lost or duplicated whole), as the
 * peer transport's batches do; a delivered batch goes through the driver's
 * own admission (`admit`, with the run's `SenderIdentity`: what peer TLS
 * naming the sender, a cluster credential, or a plaintext port proves) and
 * `receive`, a snapshot through `receiveSnapshot`, and the sender hears
 * `reportSnapshot`. A message's `from` is always its real sender.
 */

import type { Transport } from '../node/ports.js';
import type { SenderIdentity } from '../transport/admission.js';
import type { TransportHandler } from '../transport/peer-transport.js';
import type { Message, NodeId } from '../types.js';
import type { Scheduler } from './sim-disk.js';
import type { SimIncoming } from './sim-storage.js';
import { collect } from './sim-storage.js';

export interface Faults {
  lossRate: number;
  dupRate: number;
  maxDelayMs: number;
  /** Share of messages held back much longer (stale, heavily reordered deliveries). */
  stragglerRate: number;
  blocked: Set<string>;
  /** Tests: messages for which this returns true are dropped when they arrive. */
  drop?: (m: Message) => boolean;
}

/** A running incarnation of a node as the network reaches it. */
export interface Endpoint {
  readonly handler: TransportHandler;
  readonly incoming: SimIncoming;
  readonly incarnation: number;
}

export interface NetworkHooks {
  endpoint(id: NodeId): Endpoint | undefined;
  sent(m: Message): void;
  trace(line: string): void;
  dropped(): void;
  snapshotSent(): void;
  /**
   * Who is `id` (a member replaced under its id is another server): a batch whose sender or
   * addressee was replaced before it arrives is dropped, as the replaced member's
   * connections closed with it. Undefined: no replacement happens.
   */
  server?(id: NodeId): unknown;
}

export class SimNetwork {
  constructor(
    private readonly scheduler: Scheduler,
    readonly faults: Faults,
    /** What admission is told about every batch's sender. */
    readonly identity: SenderIdentity,
    private readonly hooks: NetworkHooks,
  ) {}

  private delayMs(): number {
    const prng = this.scheduler.prng;
    return prng.chance(this.faults.stragglerRate) ? prng.int(50, 500) : prng.int(1, this.faults.maxDelayMs);
  }

  private blocked(from: NodeId, to: NodeId): boolean {
    return this.faults.blocked.has(`${from}>${to}`);
  }

  /** One batch: messages from one sender to one peer, in order. */
  send(batch: readonly Message[]): void {
    const first = batch[0];
    if (!first) return;
    for (const m of batch) this.hooks.sent(m);
    const sender = this.hooks.server?.(first.from);
    const addressee = this.hooks.server?.(first.to);
    const prng = this.scheduler.prng;
    const blocked = this.blocked(first.from, first.to);
    const copies = !blocked && prng.chance(this.faults.dupRate) ? 2 : 1;
    for (let c = 0; c < copies; c++) {
      if (blocked || prng.chance(this.faults.lossRate)) {
        this.hooks.dropped();
        continue;
      }
      this.scheduler.at(
        this.delayMs(),
        () => `deliver ${batch.map(describeMessage).join(' + ')}`,
        () => {
          const to = this.hooks.endpoint(first.to);
          if (!to || this.blocked(first.from, first.to)) return;
          if (sender !== this.hooks.server?.(first.from) || addressee !== this.hooks.server?.(first.to))
            return;
          const kept = this.faults.drop ? batch.filter((m) => !this.faults.drop?.(m)) : batch;
          if (kept.length === 0) return;
          const verdict = to.handler.admit(first.from, kept, this.identity);
          if (!verdict.admitted) {
            this.hooks.trace(
              `refused ${kept.map((m) => m.type).join(',')} ${first.from}->${first.to} (${verdict.details})`,
            );
            return;
          }
          to.handler.receive([...kept]);
        },
      );
    }
  }

  /** Streams a snapshot; `done(ok)` is the sender's transport reporting the outcome. */
  sendSnapshot(m: Message, data: Uint8Array, done: (ok: boolean) => void): void {
    const prng = this.scheduler.prng;
    if (this.blocked(m.from, m.to) || prng.chance(this.faults.lossRate)) {
      this.scheduler.at(
        prng.int(1, 20),
        () => `snapshot ${m.from}->${m.to} lost`,
        () => done(false),
      );
      return;
    }
    this.hooks.snapshotSent();
    const sender = this.hooks.server?.(m.from);
    const addressee = this.hooks.server?.(m.to);
    this.scheduler.at(
      this.delayMs() + prng.int(1, 20),
      () => `deliver-snapshot ${describeMessage(m)} bytes=${data.length}`,
      () => {
        const to = this.hooks.endpoint(m.to);
        const replaced = sender !== this.hooks.server?.(m.from) || addressee !== this.hooks.server?.(m.to);
        if (
          !to ||
          replaced ||
          this.blocked(m.from, m.to) ||
          !to.handler.admit(m.from, [m], this.identity).admitted
        ) {
          done(false);
          return;
        }
        const incarnation = to.incarnation;
        const ref = to.incoming.add(data);
        to.handler.receiveSnapshot(m, ref).then(
          () => done(this.hooks.endpoint(m.to)?.incarnation === incarnation),
          () => done(false),
        );
      },
    );
  }
}

/** One incarnation of a node's Transport port. */
export class SimTransport implements Transport {
  readonly stats = {
    peers: {} as Record<NodeId, true>,
    snapshotsSent: 0,
    refused: { unauthenticated: 0, 'wrong-cluster': 0, 'not-member': 0, 'term-bound': 0 },
  };
  private readonly snapshotsInFlight = new Set<NodeId>();
  private closed = false;

  constructor(
    readonly address: string,
    private readonly network: SimNetwork,
    private readonly handler: TransportHandler,
    private readonly alive: () => boolean,
  ) {}

  start(): Promise<string> {
    return Promise.resolve(this.address);
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  send(messages: readonly Message[]): void {
    if (this.closed || !this.alive()) return;
    const batches = new Map<NodeId, Message[]>();
    for (const m of messages) {
      const batch = batches.get(m.to);
      if (batch) batch.push(m);
      else batches.set(m.to, [m]);
    }
    for (const batch of batches.values()) this.network.send(batch);
  }

  sendSnapshot(message: Message, chunks: () => Promise<AsyncIterable<Uint8Array>>): boolean {
    if (this.closed || !this.alive() || this.snapshotsInFlight.has(message.to)) return false;
    this.snapshotsInFlight.add(message.to);
    const finish = (ok: boolean) => {
      this.snapshotsInFlight.delete(message.to);
      if (ok) this.stats.snapshotsSent++;
      if (!this.closed && this.alive()) this.handler.reportSnapshot(message.to, ok);
    };
    void chunks()
      .then(collect)
      .then(
        (data) => this.network.sendSnapshot(message, data, finish),
        () => finish(false),
      );
    return true;
  }

  setPeer(id: NodeId): void {
    this.stats.peers[id] = true;
  }

  removePeer(id: NodeId): void {
    delete this.stats.peers[id];
  }
}

export function describeMessage(m: Message): string {
  return (
    `${m.type} ${m.from}->${m.to} t${m.term} i${m.index} lt${m.logTerm} n${m.entries.length} c${m.commit}` +
    (m.reject ? ` reject hint=${m.rejectHint}/${m.hintTerm}` : '') +
    (m.snapshot ? ` snap=${m.snapshot.index}/${m.snapshot.term}` : '')
  );
}
