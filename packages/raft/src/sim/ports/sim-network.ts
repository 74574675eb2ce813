/**
 * A simulated peer network between nodes' Transport ports: every batch may be
 * lost, duplicated or delayed (so reordered); directed links can be cut
 * (partitions, asymmetric ones included) and healed. Snapshots travel as one
 * transfer per peer at a time, with the outcome reported to the sender like
 * PeerTransport does.
 */
import type { IncomingSnapshots, Transport } from '../../node/ports.js';
import type { TransportHandler } from '../../transport/peer-transport.js';
import type { Message, NodeId } from '../../types.js';
import type { Prng } from '../prng.js';
import type { SimScheduler } from './sim-scheduler.js';

export interface SimNetworkOptions {
  readonly delayMs: readonly [number, number];
  readonly lossChance: number;
  readonly duplicateChance: number;
}

interface Endpoint {
  readonly handler: TransportHandler;
  readonly id: NodeId;
  closed: boolean;
}

export class SimNetwork {
  private readonly endpoints = new Map<NodeId, Endpoint>();
  /** Cut directed links, `from>to`. */
  private readonly cut = new Set<string>();
  /** Snapshot data in flight or received, by reference. */
  private readonly snapshotData = new Map<string, Uint8Array>();
  private refSeq = 0;
  options: SimNetworkOptions;
  readonly stats = { sent: 0, lost: 0, duplicated: 0, snapshots: 0 };

  constructor(
    private readonly sched: SimScheduler,
    private readonly rng: Prng,
    options: SimNetworkOptions,
  ) {
    this.options = options;
  }

  cutLink(from: NodeId, to: NodeId): void {
    this.cut.add(`${from}>${to}`);
  }

  /** Cuts every link between the two sides, both ways. */
  partition(side: readonly NodeId[], others: readonly NodeId[]): void {
    for (const a of side) {
      for (const b of others) {
        this.cutLink(a, b);
        this.cutLink(b, a);
      }
    }
  }

  /** The node's process died: its endpoint stops receiving at once. */
  detach(id: NodeId): void {
    const e = this.endpoints.get(id);
    if (e) e.closed = true;
    this.endpoints.delete(id);
  }

  heal(): void {
    this.cut.clear();
  }

  get cutLinks(): number {
    return this.cut.size;
  }

  private linked(from: NodeId, to: NodeId): boolean {
    return !this.cut.has(`${from}>${to}`);
  }

  private delay(): number {
    const [lo, hi] = this.options.delayMs;
    return this.rng.int(lo, hi);
  }

  /** The Transport port of node `id` (one per incarnation). */
  transport(id: NodeId, handler: TransportHandler): Transport {
    const me: Endpoint = { handler, id, closed: false };
    const sendingSnapshot = new Set<NodeId>();
    const net = this;
    return {
      address: `sim://${id}`,
      start() {
        net.endpoints.set(id, me);
        return Promise.resolve();
      },
      close() {
        me.closed = true;
        if (net.endpoints.get(id) === me) net.endpoints.delete(id);
        return Promise.resolve();
      },
      send(messages) {
        const byPeer = new Map<NodeId, Message[]>();
        for (const m of messages) {
          let list = byPeer.get(m.to);
          if (!list) byPeer.set(m.to, (list = []));
          list.push(m);
        }
        for (const [to, batch] of byPeer) net.post(me, to, batch);
      },
      sendSnapshot(message, chunks) {
        const to = message.to;
        if (sendingSnapshot.has(to)) return false;
        sendingSnapshot.add(to);
        net.stats.snapshots++;
        void (async () => {
          const parts: Uint8Array[] = [];
          for await (const c of await chunks()) parts.push(c);
          const ref = `snap-${++net.refSeq}`;
          net.snapshotData.set(ref, Buffer.concat(parts));
          const report = (ok: boolean): void => {
            sendingSnapshot.delete(to);
            if (!me.closed) me.handler.reportSnapshot(to, ok);
          };
          net.sched.at(
            net.delay(),
            () => `${id}->${to} snapshot ${message.snapshot?.index}`,
            () => {
              const peer = net.endpoints.get(to);
              if (!peer || peer.closed || !net.linked(id, to) || net.rng.chance(net.options.lossChance)) {
                net.snapshotData.delete(ref);
                report(false);
                return;
              }
              if (!peer.handler.isMember(id, [message])) {
                net.snapshotData.delete(ref);
                report(false);
                return;
              }
              peer.handler.receiveSnapshot(structuredClone(message), ref).then(
                () =>
                  net.sched.at(
                    net.delay(),
                    () => `${to}->${id} snapshot ok`,
                    () => report(true),
                  ),
                () => report(false),
              );
            },
          );
        })();
        return true;
      },
      setPeer: () => undefined,
      removePeer: () => undefined,
      stats: { peers: {}, snapshotsSent: 0 },
    };
  }

  /** The receiving side's store of snapshot transfers (the `snapshot-incoming/` directory). */
  incoming(): IncomingSnapshots {
    const net = this;
    return {
      reset: () => undefined,
      open(ref) {
        const data = net.snapshotData.get(ref);
        if (!data) throw new Error(`snapshot transfer ${ref} is gone`);
        return (async function* () {
          yield data;
        })();
      },
      discard: (ref) => {
        net.snapshotData.delete(ref);
      },
    };
  }

  private post(from: Endpoint, to: NodeId, batch: Message[]): void {
    this.stats.sent++;
    if (this.rng.chance(this.options.lossChance)) {
      this.stats.lost++;
      return;
    }
    const copies = this.rng.chance(this.options.duplicateChance) ? 2 : 1;
    if (copies === 2) this.stats.duplicated++;
    const data = structuredClone(batch);
    for (let i = 0; i < copies; i++) {
      this.sched.at(
        this.delay(),
        () => `${from.id}->${to} ${batch.map((m) => m.type).join(',')}`,
        () => {
          const peer = this.endpoints.get(to);
          if (!peer || peer.closed || !this.linked(from.id, to)) return;
          const msgs = i === 0 ? data : structuredClone(data);
          if (!peer.handler.isMember(from.id, msgs)) return;
          peer.handler.receive(msgs);
        },
      );
    }
  }
}
