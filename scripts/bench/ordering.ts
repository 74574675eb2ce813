// Ordering: what per-key ordering costs, and that keys never block each other (docs/design.md,
// "Per-key ordering"). M messages over K keys (10,000), all due at once, are delivered and
// acked by 4 consumer streams; the figure is their deliveries per second. Run three times on
// one cluster, each in a topic of its own: in a topic that does not order (the keys are only
// labels), in one ordered by key, and in one ordered by key while another key has its head
// leased and held (never acked) with H messages (100,000) due behind it. Printed: ordered over
// unordered (the target: at least 0.8) and held over ordered (a held key's messages wait
// outside the due order, so it should be 1). A warm-up run of M (`--warmup`) in a fourth,
// ordered topic comes first.

import { type FermataClient, LeaseExpiredError, type Message } from '@fermata/sdk';
import type { Cluster } from './cluster.js';
import {
  ensureTopic,
  load1,
  newClient,
  payloadFor,
  produceStreams,
  seqOf,
  serverCpu,
  sleep,
  startBenchCluster,
} from './cluster.js';
import { emit, flag, option, printTargets, round, summary, target } from './report.js';

const HELD_KEY = 'held';
const LEASE_MS = 20_000;

/** An ack retried after its answer was lost answers "lease expired": it was settled. */
function settled(e: unknown): void {
  if (!(e instanceof LeaseExpiredError)) throw e;
}

interface Phase {
  readonly delivered: number;
  /** The topic's pending and in-flight messages at the end (the held key's included). */
  readonly left: { readonly pending: number; readonly inFlight: number };
  readonly seconds: number;
  readonly msgsPerS: number;
  /** The servers' CPU (three nodes) per delivered message, from the measured publish to the end. */
  readonly cpuUsPerMsg: number;
  /** The same from the first delivery on (the drain alone), by node and by thread kind. */
  readonly drainCpu: ReturnType<ReturnType<typeof serverCpu>['done']>;
  readonly heldDelivered: number;
  /** Deliveries of a message already counted: a lease a stream lost, come back. */
  readonly redelivered: number;
  /** Deliveries of the held head after its lease lapsed (it is kept again, not acked). */
  readonly headLapsed: number;
}

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const keys = option(args, 'keys', quick ? 500 : 10_000);
  const messages = option(args, 'messages', quick ? 2_000 : 50_000);
  const held = option(args, 'held', quick ? 1_000 : 100_000);
  const consumers = option(args, 'consumers', 4);
  const timeoutMs = option(args, 'timeout-ms', quick ? 120_000 : 600_000);
  // Published this long (plus 0.5 ms a message) before they fall due; --quick judges no figure.
  const leadMs = quick ? 1_000 : 3_000;
  // --quick judges no figure: no warm-up.
  const warmup = option(args, 'warmup', quick ? 0 : messages);
  const cluster = await startBenchCluster(args);
  const client = newClient(cluster);
  try {
    // The first run on a fresh cluster pays for the JIT: a run of its own before the measured ones.
    if (warmup > 0) {
      await phase(cluster, client, 'bench-ordering-warmup', {
        keys,
        messages: warmup,
        held: 0,
        consumers,
        timeoutMs,
        leadMs,
        ordered: true,
      });
    }
    const shape = { keys, messages, consumers, timeoutMs, leadMs };
    const off = await phase(cluster, client, 'bench-ordering-off', { ...shape, held: 0, ordered: false });
    const alone = await phase(cluster, client, 'bench-ordering-alone', { ...shape, held: 0, ordered: true });
    const beside = await phase(cluster, client, 'bench-ordering-held', { ...shape, held, ordered: true });
    const onOverOff = round(alone.msgsPerS / Math.max(1, off.msgsPerS), 2);
    const ratio = round(beside.msgsPerS / Math.max(1, alone.msgsPerS), 2);
    const atSize = !quick && keys >= 10_000;
    const targets = [target('ordered_over_unordered', onOverOff, '>=', 0.8, atSize)];
    emit({
      scenario: 'ordering',
      quick,
      keys,
      messages,
      held_messages: held,
      consumers,
      unordered_msgs_per_s: off.msgsPerS,
      unordered_seconds: off.seconds,
      unordered_server_cpu_us_per_msg: off.cpuUsPerMsg,
      alone_msgs_per_s: alone.msgsPerS,
      alone_delivered: alone.delivered,
      alone_seconds: alone.seconds,
      alone_server_cpu_us_per_msg: alone.cpuUsPerMsg,
      // From the first delivery on: what the drain costs, by node and by thread kind.
      unordered_drain_cpu: off.drainCpu,
      alone_drain_cpu: alone.drainCpu,
      beside_held_msgs_per_s: beside.msgsPerS,
      beside_held_delivered: beside.delivered,
      left_at_end: { unordered: off.left, alone: alone.left, beside: beside.left },
      redelivered: { unordered: off.redelivered, alone: alone.redelivered, beside: beside.redelivered },
      beside_held_seconds: beside.seconds,
      beside_held_server_cpu_us_per_msg: beside.cpuUsPerMsg,
      // Target: at least 0.8 (ordering on delivers within 20 % of the rate with it off).
      ordered_over_unordered: onOverOff,
      beside_over_alone: ratio,
      // Must be 1 (the head) while the other keys drain: nothing behind a held head goes out.
      held_key_delivered: beside.heldDelivered,
      held_head_lapsed: beside.headLapsed,
      load_avg_1m: load1(),
      targets,
    });
    summary(
      `ordering ${messages} msgs over ${keys} keys: ${off.msgsPerS} msgs/s unordered, ${alone.msgsPerS} ` +
        `msgs/s ordered (${onOverOff} of unordered), ${beside.msgsPerS} msgs/s ` +
        `while key "${HELD_KEY}" holds ${held} due messages behind a leased head (${ratio} of alone; ` +
        `${beside.heldDelivered} of the held key delivered); servers' CPU ${off.cpuUsPerMsg}, ` +
        `${alone.cpuUsPerMsg} and ${beside.cpuUsPerMsg} µs/msg; load ${load1()}`,
    );
    printTargets('ordering', targets);
  } finally {
    await client.close();
    await cluster.stop();
  }
}

/**
 * One run in `topic` (ordered by key when `ordered`): with `held` > 0 first the held key's head and `held`
 * messages behind it, the head leased and kept; then `messages` over `keys` keys, due at once,
 * delivered and acked. Their rate is from their first delivery to the last one's (a key's
 * next message is delivered only once the one before is acked).
 */
async function phase(
  cluster: Cluster,
  client: FermataClient,
  topic: string,
  o: {
    keys: number;
    messages: number;
    held: number;
    consumers: number;
    timeoutMs: number;
    leadMs: number;
    ordered: boolean;
  },
): Promise<Phase> {
  await ensureTopic(client, topic);
  if (o.ordered) await client.updateTopic(topic, { ordering: 'key' });
  let heldDelivered = 0;
  let head: Message | undefined;
  let delivered = 0;
  let redelivered = 0;
  let headLapsed = 0;
  let firstAt = 0;
  let lastAt = 0;
  let drainCpu: ReturnType<typeof serverCpu> | undefined;
  let done: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (done = resolve));
  const seen = new Set<number>();
  // Sequence numbers: the held key's first (0 .. held), the measured ones after.
  const measured = (seq: number): boolean => seq > o.held;
  const subs = Array.from({ length: o.consumers }, () =>
    client.subscribe(
      topic,
      // A lease that a stream lost (a reconnect under load) comes back within the phase; the held
      // head is kept by extending it.
      { prefetch: 1_000, concurrency: 1_000, mode: 'manual', leaseMs: LEASE_MS },
      async (m) => {
        const seq = seqOf(m);
        if (!measured(seq)) {
          // The head is held (acked once the measured messages are in), again if its lease
          // lapsed; any other is acked.
          if (!head || seqOf(head) === seq) {
            if (head) headLapsed++;
            else heldDelivered++;
            head = m;
          } else {
            heldDelivered++;
            await m.ack().catch(settled);
          }
          return;
        }
        // Counted at its first delivery; an ack that fails (a retry after an answer lost under
        // load answers "lease expired") leaves the message to be delivered again and acked then.
        if (!seen.has(seq)) {
          seen.add(seq);
          lastAt = Date.now();
          if (firstAt === 0) {
            firstAt = lastAt;
            drainCpu = serverCpu(cluster);
          }
          if (++delivered >= o.messages) done();
        } else redelivered++;
        await m.ack().catch(() => undefined);
      },
    ),
  );
  while (!subs.every((s) => s.connected)) await sleep(20);
  // From its first delivery on (publishing the held messages may outlast a lease).
  const keep = setInterval(() => void head?.extend(LEASE_MS).catch(() => undefined), LEASE_MS / 4);
  if (o.held > 0) {
    await produceStreams(client, {
      total: o.held + 1,
      producers: 8,
      batch: 100,
      topic,
      make: (i) => ({ payload: payloadFor(i), orderingKey: HELD_KEY }),
      latencies: false,
    });
    while (!head) await sleep(20);
  }
  const cpu = serverCpu(cluster);
  // Published before they fall due, so the rate is the delivery's, not the producers'.
  const dueAt = Date.now() + o.leadMs + Math.ceil(o.messages / 2);
  await produceStreams(client, {
    total: o.messages,
    producers: 16,
    batch: 100,
    topic,
    make: (i) => ({
      payload: payloadFor(o.held + 1 + i),
      deliverAt: dueAt,
      orderingKey: `key-${i % o.keys}`,
    }),
    latencies: false,
  });
  await Promise.race([all, sleep(Math.max(0, dueAt - Date.now()) + o.timeoutMs)]);
  clearInterval(keep);
  // Of the held key, what went out while the others were measured; its head goes last (a
  // subscription closing waits for what it holds).
  const cpuUsPerMsg = cpu.done(delivered).us_per_msg;
  const drain = (drainCpu ?? cpu).done(delivered);
  const heldAtEnd = heldDelivered;
  const [g] = (await client.topicStats(topic)).groups;
  const left = { pending: g?.pending ?? 0, inFlight: g?.inFlight ?? 0 };
  await head?.ack().catch(settled);
  await Promise.all(subs.map((s) => s.close()));
  const seconds = Math.max(0.001, (lastAt - firstAt) / 1000);
  return {
    delivered,
    left,
    seconds: round(seconds, 2),
    msgsPerS: round(delivered / seconds, 0),
    cpuUsPerMsg,
    drainCpu: drain,
    heldDelivered: heldAtEnd,
    redelivered,
    headLapsed,
  };
}
