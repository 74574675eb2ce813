/**
 * The workloads of `npm run bench -- peers`, the same code for every system:
 *
 * - mixed: N messages of 256 B due uniformly 1-5 s after their publish, produced by
 *   4 producers in batches of 100 while the consumers receive (the peers' latency workload);
 * - burst: N messages all due within one second D..D+1 s, produced beforehand;
 * - scale: N messages due in an hour left pending, then a probe of 200 due in 1-2 s.
 *
 * A delivery is stamped when the system's handler runs; lateness is that stamp minus the due
 * time, both read from this machine's clock. CPU is read from /proc for the servers' process
 * trees and from this process (BullMQ's and pg-boss's scheduling work partly runs in the client).
 */
import { DeliveryLedger, diskBytes, type Stats, sleep } from '../cluster.js';
import { round } from '../report.js';
import { treeCpuMs, treePssBytes } from './proc.js';
import type { PeerMessage, PeerQueue, PeerSystem } from './systems.js';

export const PAYLOAD_BYTES = 256;
/** How long after the last due time a message not yet delivered counts as not delivered. */
const GRACE_MS = 30_000;
/** How long the workload keeps listening after the last delivery, to count redeliveries. */
const SETTLE_MS = 1_000;
/** How often "is anything unfinished" is asked once every message arrived (the acks follow). */
const DRAIN_POLL_MS = 100;
const DRAIN_TIMEOUT_MS = 30_000;
const HOUR_MS = 3_600_000;

export interface ProduceShape {
  readonly producers: number;
  readonly batch: number;
}

export interface CpuFigures {
  server_cpu_us_per_msg: number;
  client_cpu_us_per_msg: number;
}

/** Server and client CPU from now until `done(messages)`, per message in µs. */
function cpuWindow(system: PeerSystem): { done(messages: number): CpuFigures } {
  const server0 = treeCpuMs(system.serverPids);
  const client0 = process.cpuUsage();
  return {
    done(messages) {
      const serverMs = treeCpuMs(system.serverPids) - server0;
      const client = process.cpuUsage(client0);
      const n = Math.max(1, messages);
      return {
        server_cpu_us_per_msg: round((serverMs * 1000) / n, 1),
        client_cpu_us_per_msg: round((client.user + client.system) / n, 1),
      };
    },
  };
}

/** A seeded generator, so every system gets the same schedule of delays. */
function random(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = Math.imul(t ^ (t >>> 15), 1 | t);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const PAYLOAD = 'p'.repeat(PAYLOAD_BYTES);

/**
 * Produces ids [from, to) with `shape.producers` tasks each sending batches of `shape.batch`;
 * `dueAt(id, sentAtMs)` gives each message's due time from the clock reading just before its
 * batch is sent. Resolves with the rate (messages / wall time of the whole production).
 */
async function produceRange(
  queue: PeerQueue,
  from: number,
  to: number,
  shape: ProduceShape,
  dueAt: (id: number, sentAtMs: number) => number,
  ledger?: DeliveryLedger,
): Promise<{ msgs_per_s: number; seconds: number }> {
  let next = from;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: shape.producers }, async () => {
      while (next < to) {
        const start = next;
        const end = Math.min(to, start + shape.batch);
        next = end;
        const sentAt = Date.now();
        const batch: PeerMessage[] = [];
        for (let id = start; id < end; id++) {
          const dueAtMs = dueAt(id, sentAt);
          ledger?.expect(id - from, dueAtMs);
          batch.push({ id, payload: PAYLOAD, dueAtMs });
        }
        await queue.produce(batch);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { msgs_per_s: round((to - from) / seconds, 0), seconds: round(seconds, 2) };
}

/** Waits until the queue reports nothing unfinished; the time it did, or undefined after the timeout. */
async function drained(queue: PeerQueue, timeoutMs: number): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await queue.unfinished()) === 0) return Date.now();
    await sleep(DRAIN_POLL_MS);
  }
  return undefined;
}

const lateOf = (s: Stats) => ({ p50: s.p50, p99: s.p99, max: s.max });

function outcome(ledger: DeliveryLedger, n: number) {
  return {
    delivered: ledger.delivered,
    not_delivered: n - ledger.delivered,
    duplicated: ledger.duplicates,
    early: ledger.early,
    foreign: ledger.foreign,
  };
}

export interface MixedOptions extends ProduceShape {
  readonly messages: number;
  readonly delayMinMs: number;
  readonly delayMaxMs: number;
  readonly consumers: number;
  readonly seed: number;
}

export async function mixed(system: PeerSystem, o: MixedOptions) {
  const queue = await system.openQueue(`peers-mixed-${Date.now().toString(36)}`);
  const ledger = new DeliveryLedger(o.messages);
  try {
    await queue.consume((id) => ledger.receive(id, Date.now()), { consumers: o.consumers });
    const rnd = random(o.seed);
    const cpu = cpuWindow(system);
    let lastDue = 0;
    const produced = await produceRange(
      queue,
      0,
      o.messages,
      o,
      (_id, sentAt) => {
        const due = sentAt + o.delayMinMs + Math.floor(rnd() * (o.delayMaxMs - o.delayMinMs + 1));
        lastDue = Math.max(lastDue, due);
        return due;
      },
      ledger,
    );
    await ledger.waitFor(o.messages, Math.max(0, lastDue - Date.now()) + GRACE_MS);
    await drained(queue, DRAIN_TIMEOUT_MS);
    const used = cpu.done(ledger.delivered);
    await sleep(SETTLE_MS);
    return {
      workload: 'mixed',
      system: system.name,
      messages: o.messages,
      consumers: o.consumers,
      produce_msgs_per_s: produced.msgs_per_s,
      lateness_ms: lateOf(ledger.lateness()),
      ...outcome(ledger, o.messages),
      ...used,
    };
  } finally {
    await queue.close();
  }
}

export interface BurstOptions extends ProduceShape {
  readonly messages: number;
  readonly consumers: number;
  readonly timeoutMs: number;
}

/**
 * The due second must come after the last publish, and how fast a system takes messages in
 * depends on the machine's load of the moment: a tenth of the burst (at most 10,000) is first
 * produced the same way into a queue of its own, due in an hour, and D is set from that rate.
 */
const BURST_RATE_MARGIN = 0.6;

async function calibrate(system: PeerSystem, o: BurstOptions): Promise<number> {
  const queue = await system.openQueue(`peers-burst-rate-${Date.now().toString(36)}`);
  try {
    const n = Math.max(o.batch, Math.min(10_000, Math.floor(o.messages / 10)));
    const r = await produceRange(queue, 0, n, o, (_id, sentAt) => sentAt + HOUR_MS);
    return r.msgs_per_s;
  } finally {
    await queue.close();
  }
}

/** The servers' CPU counts from this long before D (Fermata leases up to 2 s ahead). */
const BURST_CPU_LEAD_MS = 3_000;

export async function burst(system: PeerSystem, o: BurstOptions) {
  const queue = await system.openQueue(`peers-burst-${Date.now().toString(36)}`);
  const ledger = new DeliveryLedger(o.messages);
  try {
    await queue.consume((id) => ledger.receive(id, Date.now()), { consumers: o.consumers });
    const rate = await calibrate(system, o);
    const dueSecond = Date.now() + Math.ceil((o.messages / (rate * BURST_RATE_MARGIN)) * 1000) + 3_000;
    const produced = await produceRange(queue, 0, o.messages, o, (id) => dueSecond + (id % 1000), ledger);
    const publishedBeforeDue = Date.now() < dueSecond;
    await sleep(Math.max(0, dueSecond - BURST_CPU_LEAD_MS - Date.now()));
    const cpu = cpuWindow(system);
    await ledger.waitFor(o.messages, Math.max(0, dueSecond - Date.now()) + o.timeoutMs);
    const drainedAt = await drained(queue, DRAIN_TIMEOUT_MS);
    // Counted from before D only when producing ended before it; otherwise unknown.
    const used = publishedBeforeDue
      ? cpu.done(ledger.delivered)
      : { server_cpu_us_per_msg: null, client_cpu_us_per_msg: null };
    await sleep(SETTLE_MS);
    const all = ledger.delivered >= o.messages;
    return {
      workload: 'burst',
      system: system.name,
      messages: o.messages,
      consumers: o.consumers,
      produce_msgs_per_s: produced.msgs_per_s,
      published_before_due: publishedBeforeDue,
      all_delivered_after_due_s: all ? round((ledger.lastAt - dueSecond) / 1000, 2) : null,
      none_unfinished_after_due_s:
        all && drainedAt !== undefined ? round((drainedAt - dueSecond) / 1000, 2) : null,
      delivery_msgs_per_s: round(
        ledger.delivered / Math.max(0.001, (ledger.lastAt - ledger.firstDeliveryAt) / 1000),
        0,
      ),
      lateness_ms: lateOf(ledger.lateness()),
      ...outcome(ledger, o.messages),
      ...used,
    };
  } finally {
    await queue.close();
  }
}

export interface ScaleOptions extends ProduceShape {
  readonly pending: number;
  readonly probe: number;
}

/** Message numbers of the probe start here, far above any pending message's. */
const PROBE_BASE = 1_000_000_000;

export async function scale(system: PeerSystem, o: ScaleOptions) {
  const queue = await system.openQueue(`peers-scale-${Date.now().toString(36)}`);
  const ledger = new DeliveryLedger(o.probe);
  try {
    await queue.consume((id) => ledger.receive(id - PROBE_BASE, Date.now()), { consumers: 32 });
    await sleep(1_000);
    const memory0 = treePssBytes(system.serverPids);
    const disk0 = system.dataDirs.reduce((s, d) => s + diskBytes(d), 0);
    const produced = await produceRange(queue, 0, o.pending, o, (_id, sentAt) => sentAt + HOUR_MS);
    await sleep(3_000);
    const memory = treePssBytes(system.serverPids);
    const disk = system.dataDirs.reduce((s, d) => s + diskBytes(d), 0);
    const rnd = random(7);
    let lastDue = 0;
    await produceRange(
      queue,
      PROBE_BASE,
      PROBE_BASE + o.probe,
      { producers: 1, batch: o.probe },
      (_id, sentAt) => {
        const due = sentAt + 1_000 + Math.floor(rnd() * 1_001);
        lastDue = Math.max(lastDue, due);
        return due;
      },
      ledger,
    );
    await ledger.waitFor(o.probe, Math.max(0, lastDue - Date.now()) + GRACE_MS);
    return {
      workload: 'scale',
      system: system.name,
      pending: o.pending,
      produce_msgs_per_s: produced.msgs_per_s,
      // Pss of the servers' process trees: the three nodes together for Fermata.
      server_memory_mb: round(memory / 2 ** 20, 1),
      memory_bytes_per_pending: round((memory - memory0) / o.pending, 1),
      // All copies: Fermata's three nodes each hold one.
      disk_bytes_per_pending: round((disk - disk0) / o.pending, 1),
      probe_lateness_ms: lateOf(ledger.lateness()),
      probe_not_delivered: o.probe - ledger.delivered,
    };
  } finally {
    await queue.close();
  }
}
