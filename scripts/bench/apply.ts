// The state machine alone, in this process: applying publish entries (1,000 messages of 256 B,
// ten requests of 100 each with an SDK-style request idempotency key, as 64 producers batching
// 100 make them; 4 entries per apply call) to a LevelDB store.
// CPU per message is what every replica pays for every published message, so it bounds the
// cluster's publish rate: three replicas share the machine's cores.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BrokerStateMachine,
  createQueueHasher,
  encodeCommand,
  loadConfig,
  stateStoreOptions,
} from '@fermata/broker';
import type { Entry } from '@fermata/raft';
import { openStore } from '@fermata/storage';
import { load1 } from './cluster.js';
import { emit, flag, option, round, summary } from './report.js';

const PER_ENTRY = 1_000;
const PER_REQUEST = 100;
const ENTRIES_PER_APPLY = 4;

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const rounds = option(args, 'rounds', quick ? 5 : 50);
  const dir = mkdtempSync(join(tmpdir(), 'fermata-bench-apply-'));
  // The store as a node opens it (the defaults of the storage.* settings).
  const store = await openStore(stateStoreOptions(loadConfig({ env: {} }).storage, join(dir, 'db')));
  try {
    const sm = await BrokerStateMachine.open({ store, hasher: await createQueueHasher() });
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
        const data = encodeCommand({ kind: 'publish', firstId: id, messages, requests, nowMs: Date.now() });
        id += BigInt(PER_ENTRY);
        entries.push({ index: ++index, term: 1, type: 'normal', data } as Entry);
      }
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await sm.apply(entries);
      wallMs += performance.now() - t0;
      const c = process.cpuUsage(c0);
      cpuUs += c.user + c.system;
    }
    const n = rounds * ENTRIES_PER_APPLY * PER_ENTRY;
    const record = {
      scenario: 'apply',
      quick,
      messages: n,
      msgs_per_s: round(n / (wallMs / 1000), 0),
      cpu_us_per_msg: round(cpuUs / n, 1),
      load_avg_1m: load1(),
    };
    emit(record);
    summary(
      `apply: ${record.msgs_per_s} msgs/s, ${record.cpu_us_per_msg} us CPU per message (process-wide: LevelDB's threads included; load ${record.load_avg_1m})`,
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
