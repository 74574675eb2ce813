// Failover: 4 publishers run closed loops of single publishes (delay 0) while a consumer
// takes every message. Each trial SIGKILLs the leader and measures the time from the kill to
// the first publish acknowledged after the old leader's process is gone (so by the new
// leader); the killed node is started again before the next trial. Lost = acknowledged
// publishes never delivered (checked at the end).
import {
  DeliveryLedger,
  ensureTopic,
  load1,
  newClient,
  payloadFor,
  seqOf,
  sleep,
  startBenchCluster,
  stats,
} from './cluster.js';
import { emit, flag, option, summary } from './report.js';

const MAX_MESSAGES = 1_000_000;

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const trials = option(args, 'trials', quick ? 2 : 10);
  const cluster = await startBenchCluster(args);
  const client = newClient(cluster);
  const topic = 'bench-failover';
  const ledger = new DeliveryLedger(MAX_MESSAGES);
  const ackedFlags = new Uint8Array(MAX_MESSAGES);
  let seq = 0;
  let acked = 0;
  let failed = 0;
  let lastAckAt = 0;
  let running = true;
  const ackWaiters: Array<{ after: number; done: (t: number) => void }> = [];
  try {
    await ensureTopic(client, topic);
    const sub = client.subscribe(topic, { prefetch: 1_000, concurrency: 1_000 }, (m) => {
      ledger.receive(seqOf(m), m.receivedAtMs);
    });
    while (!sub.connected) await sleep(20);
    const publishers = Array.from({ length: 4 }, async () => {
      while (running) {
        const i = seq++;
        if (i >= MAX_MESSAGES) break;
        // Expected before the publish: with delay 0 the delivery may beat the acknowledgement.
        ledger.expect(i, 0);
        try {
          await client.publish(topic, payloadFor(i), { delayMs: 0 });
          const at = Date.now();
          ackedFlags[i] = 1;
          acked++;
          lastAckAt = at;
          for (const w of ackWaiters.splice(0)) {
            if (at > w.after) w.done(at);
            else ackWaiters.push(w);
          }
        } catch {
          failed++;
        }
      }
    });
    const nextAckAfter = (after: number): Promise<number> =>
      new Promise((done) => ackWaiters.push({ after, done }));

    const times: number[] = [];
    for (let t = 0; t < trials; t++) {
      await sleep(1_000);
      const leader = await cluster.leader();
      const killAt = Date.now();
      await leader.kill('SIGKILL');
      const goneAt = Date.now();
      const firstAck = await nextAckAfter(goneAt);
      times.push(firstAck - killAt);
      summary(
        `failover trial ${t + 1}: killed ${leader.id}; first acknowledged publish after ${firstAck - killAt} ms`,
      );
      if (t === trials - 1) break; // two of three nodes keep serving the checks below
      await leader.start();
      await leader.waitReady();
    }
    running = false;
    await Promise.all(publishers);
    const ackedLost = (): number => {
      let lost = 0;
      for (let i = 0; i < seq && i < MAX_MESSAGES; i++) if (ackedFlags[i] && ledger.count[i] === 0) lost++;
      return lost;
    };
    const deadline = Date.now() + 30_000;
    while (ackedLost() > 0 && Date.now() < deadline) await sleep(200);
    await sleep(1_000);
    await sub.close();
    const s = stats(times);
    const record = {
      scenario: 'failover',
      quick,
      trials,
      kill_to_first_ack_ms: { p50: s.p50, max: s.max, min: s.min, all: times },
      published_acked: acked,
      publish_errors: failed,
      delivered: ledger.delivered,
      lost: ackedLost(),
      duplicated: ledger.duplicates,
      load_avg_1m: load1(),
      last_ack_ms_ago: Date.now() - lastAckAt,
    };
    emit(record);
    summary(
      `failover ${trials} trials: kill -> first acknowledged publish p50 ${s.p50} ms, max ${s.max} ms; ` +
        `${acked} publishes acknowledged, ${failed} failed, lost ${record.lost}, duplicated ${record.duplicated} (load ${record.load_avg_1m})`,
    );
  } finally {
    running = false;
    await client.close();
    await cluster.stop();
  }
}
