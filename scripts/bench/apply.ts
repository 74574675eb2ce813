// The state machine alone, in this process: applying publish entries (1,000 messages of 256 B,
// ten requests of 100 each with an SDK-style request idempotency key, as 64 producers batching
// 100 make them; 4 entries per apply call) to a LevelDB store. Then the life of a delivered
// message: messages published due now, leased (commands of --lease-batch tags, one per apply
// call, as lease rounds come) and acked (commands of --ack-batch tags, 4 per apply call).
// CPU per message is what every replica pays for every published (delivered) message, so it
// bounds the cluster's publish (delivery) rate: three replicas share the machine's cores.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BrokerStateMachine,
  type CommandResult,
  createQueueHasher,
  DEFAULT_GROUP,
  encodeCommand,
  loadConfig,
  queueName,
  stateStoreOptions,
} from '@fermata/broker';
import type { Entry } from '@fermata/raft';
import { openStore } from '@fermata/storage';
import { load1 } from './cluster.js';
import { emit, flag, option, round, summary } from './report.js';

const PER_ENTRY = 1_000;
const PER_REQUEST = 100;
const ENTRIES_PER_APPLY = 4;

/**
 * The main thread's time on a CPU so far, in µs (Linux's schedstat, ns resolution), or
 * undefined elsewhere. Apart from LevelDB's compaction thread, whose share varies from
 * run to run with what the memtable flushes: the main thread's is the steadier figure.
 */
export function mainThreadUs(): number | undefined {
  try {
    const ns = Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** Main-thread CPU (µs) of the phases measured by `cpuOf`, by phase name. */
const mainUs = new Map<string, number>();

/** This process's CPU time (user + system, all threads) while `fn` runs, in µs; its main thread's under `phase`. */
async function cpuOf(fn: () => Promise<unknown>, phase?: string): Promise<number> {
  const c0 = process.cpuUsage();
  const m0 = mainThreadUs();
  await fn();
  const c = process.cpuUsage(c0);
  const m1 = mainThreadUs();
  if (phase && m0 !== undefined && m1 !== undefined) mainUs.set(phase, (mainUs.get(phase) ?? 0) + m1 - m0);
  return c.user + c.system;
}

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const rounds = option(args, 'rounds', quick ? 5 : 50);
  // --body-records: a body record per message, as versions without storage.inlineBodies wrote.
  const inlineBodies = !flag(args, 'body-records');
  const dir = mkdtempSync(join(tmpdir(), 'fermata-bench-apply-'));
  // The store as a node opens it (the defaults of the storage.* settings).
  const config = loadConfig({ env: {} });
  const store = await openStore(stateStoreOptions(config.storage, join(dir, 'db')));
  try {
    const hasher = await createQueueHasher();
    const sm = await BrokerStateMachine.open({
      store,
      hasher,
      cacheEntries: config.storage.recordCacheEntries,
    });
    const payload = new Uint8Array(256).fill(0x61);
    let id = 1n;
    let index = 0;
    let cpuUs = 0;
    let wallMs = 0;
    for (let r = 0; r < rounds; r++) {
      const entries: Entry[] = [];
      for (let e = 0; e < ENTRIES_PER_APPLY; e++) {
        const messages = Array.from({ length: PER_ENTRY }, () => ({
          topic: 'bench-apply',
          payload,
          delayMs: 86_400_000,
        }));
        const requests = Array.from({ length: PER_ENTRY / PER_REQUEST }, () => ({
          idempotencyKey: `sdk:${randomBytes(16).toString('base64url')}`,
          count: PER_REQUEST,
        }));
        const data = encodeCommand({
          kind: 'publish',
          firstId: id,
          messages,
          requests,
          nowMs: Date.now(),
          inlineBodies,
        });
        id += BigInt(PER_ENTRY);
        entries.push({ index: ++index, term: 1, type: 'normal', data } as Entry);
      }
      const t0 = performance.now();
      cpuUs += await cpuOf(() => sm.apply(entries), 'publish');
      wallMs += performance.now() - t0;
    }
    const n = rounds * ENTRIES_PER_APPLY * PER_ENTRY;

    // Delivered messages: publish due now, lease, ack.
    const leaseBatch = option(args, 'lease-batch', 250);
    const ackBatch = option(args, 'ack-batch', 50);
    const delivered = option(args, 'delivered', quick ? 5_000 : 50_000);
    // --moved-leases: the lease of versions without leases in place (each entry moved to a new key).
    const inPlace = !flag(args, 'moved-leases');
    // --in-place-leases (or --moved-leases): each entry leased on its own, as versions without
    // dispatcher.leaseRuns do; by default one run per lease command.
    const runs = !flag(args, 'in-place-leases') && !flag(args, 'moved-leases');
    // --ordered-keys K: the topic orders by key and the messages go round-robin over K keys,
    // so only each key's front is due; rounds lease every due front and ack it, K at a time.
    const orderedKeys = option(args, 'ordered-keys', 0);
    const topic = 'bench-deliver';
    const apply = async (commands: Parameters<typeof encodeCommand>[0][]): Promise<CommandResult[]> => {
      const entries = commands.map(
        (c) => ({ index: ++index, term: 1, type: 'normal', data: encodeCommand(c) }) as Entry,
      );
      return (await sm.apply(entries)) as CommandResult[];
    };
    if (orderedKeys > 0)
      await apply([{ kind: 'create-topic', name: topic, settings: { ordering: 'key' }, nowMs: Date.now() }]);
    const publishUs = await cpuOf(async () => {
      for (let at = 0; at < delivered; at += PER_ENTRY) {
        const count = Math.min(PER_ENTRY, delivered - at);
        const messages = Array.from({ length: count }, (_, i) => ({
          topic,
          payload,
          delayMs: 0,
          ...(orderedKeys > 0 ? { orderingKey: `k${(at + i) % orderedKeys}` } : {}),
        }));
        await apply([{ kind: 'publish', firstId: id, messages, nowMs: Date.now(), inlineBodies }]);
        id += BigInt(count);
      }
    }, 'publish-due-now');
    const queue = hasher(queueName(topic, DEFAULT_GROUP));
    let leased: Uint8Array[] = [];
    let deliveredSoFar = 0;
    let scanUs = 0;
    let leaseUs = 0;
    let ackUs = 0;
    // One cycle leases every due entry and acks them: one cycle unordered, one per message of a key ordered.
    while (deliveredSoFar < delivered) {
      // Where the next read starts, as the dispatcher keeps it (nothing comes due before it here).
      // An ack that moves a key's next message up notes it due before the cursor: each cycle reads from the start.
      let cursor: Uint8Array | undefined;
      leaseUs += await cpuOf(async () => {
        for (;;) {
          const now = Date.now();
          let due!: Awaited<ReturnType<typeof sm.reader.scanDue>>;
          // The leader's read of due entries, apart: followers only apply.
          scanUs += await cpuOf(async () => {
            due = await sm.reader.scanDue(queue, 0, now, now, leaseBatch, undefined, cursor);
          }, 'scan');
          cursor = due.resumeTag;
          if (due.entries.length === 0) break;
          const [r] = await apply([
            {
              kind: 'lease',
              topic,
              group: DEFAULT_GROUP,
              tags: due.entries.map((e) => e.tag),
              leaseMs: 30_000,
              firstId: id,
              idCount: due.entries.length,
              ...(runs ? { leaseId: id + BigInt(due.entries.length) } : {}),
              nowMs: now,
              inPlace,
              inlineBodies,
            },
          ]);
          id += BigInt(due.entries.length + (runs ? 1 : 0));
          if (r?.kind !== 'lease') throw new Error(`lease answered ${JSON.stringify(r)}`);
          for (const o of r.outcomes) if (o.newTag) leased.push(o.newTag);
        }
      }, 'lease-and-scan');
      if (leased.length === 0) throw new Error(`leased ${deliveredSoFar} of ${delivered}`);
      deliveredSoFar += leased.length;
      ackUs += await cpuOf(async () => {
        for (let at = 0; at < leased.length; at += 4 * ackBatch) {
          const commands = [];
          for (let k = at; k < Math.min(leased.length, at + 4 * ackBatch); k += ackBatch) {
            commands.push({ kind: 'ack' as const, tags: leased.slice(k, k + ackBatch), nowMs: Date.now() });
          }
          const results = await apply(commands);
          for (const r of results) {
            if (r?.kind !== 'ack' || r.outcomes.some((o) => o.status !== 'ok'))
              throw new Error(`ack answered ${JSON.stringify(r)}`);
          }
        }
      }, 'ack');
      leased = [];
    }
    if (deliveredSoFar !== delivered) throw new Error(`leased ${deliveredSoFar} of ${delivered}`);
    const record = {
      scenario: 'apply',
      quick,
      messages: n,
      msgs_per_s: round(n / (wallMs / 1000), 0),
      cpu_us_per_msg: round(cpuUs / n, 1),
      delivered,
      lease_batch: leaseBatch,
      lease_in_place: inPlace,
      lease_runs: runs,
      inline_bodies: inlineBodies,
      ack_batch: ackBatch,
      ordered_keys: orderedKeys,
      delivered_cpu_us_per_msg: {
        publish_due_now: round(publishUs / delivered, 1),
        lease_scan: round(scanUs / delivered, 1),
        lease: round((leaseUs - scanUs) / delivered, 1),
        ack: round(ackUs / delivered, 1),
      },
      // The main thread alone (Linux only): JS, classic-level's calls, the GC's main-thread part.
      main_thread_us_per_msg: mainUs.has('publish')
        ? {
            publish: round(mainUs.get('publish')! / n, 1),
            publish_due_now: round(mainUs.get('publish-due-now')! / delivered, 1),
            lease_scan: round(mainUs.get('scan')! / delivered, 1),
            lease: round((mainUs.get('lease-and-scan')! - mainUs.get('scan')!) / delivered, 1),
            ack: round(mainUs.get('ack')! / delivered, 1),
          }
        : undefined,
      load_avg_1m: load1(),
    };
    emit(record);
    const d = record.delivered_cpu_us_per_msg;
    const m = record.main_thread_us_per_msg;
    summary(
      `apply: ${record.msgs_per_s} msgs/s, ${record.cpu_us_per_msg} us CPU per message (process-wide: LevelDB's threads included; load ${record.load_avg_1m}); ` +
        `a delivered message: publish ${d.publish_due_now} + lease ${d.lease} (+ leader's scan ${d.lease_scan}) + ack ${d.ack} us` +
        (m
          ? `; main thread alone: publish ${m.publish}, a delivered message ${m.publish_due_now} + ${m.lease} (+ ${m.lease_scan}) + ${m.ack} us`
          : ''),
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
