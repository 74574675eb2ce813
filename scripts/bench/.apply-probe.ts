// temporary: apply cost per published message, in process
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerStateMachine, createQueueHasher, encodeCommand } from '@fermata/broker';
import { openStore } from '@fermata/storage';

const store = await openStore({ engine: 'leveldb', path: join(mkdtempSync(join(tmpdir(), 'ap-')), 'db') });
const sm = await BrokerStateMachine.open({ store, hasher: await createQueueHasher() });
const payload = new Uint8Array(256).fill(97);
let id = 1n;
let index = 0;
const N = Number(process.argv[2] ?? 100);
const PER = 1000;
let cpuApply = 0;
const t0 = performance.now();
for (let r = 0; r < N; r++) {
  const entries = [];
  for (let e = 0; e < 4; e++) {
    const messages = Array.from({ length: PER }, () => ({
      topic: 't',
      payload,
      delayMs: 86_400_000,
      key: 'sdk:' + randomBytes(16).toString('base64url'),
    }));
    const cmd = { kind: 'publish' as const, firstId: id, messages, nowMs: Date.now() };
    id += BigInt(PER);
    entries.push({ index: ++index, term: 1, type: 'normal' as const, data: encodeCommand(cmd) });
  }
  const c0 = process.cpuUsage();
  await sm.apply(entries as never);
  const c1 = process.cpuUsage(c0);
  cpuApply += (c1.user + c1.system) / 1000;
}
const ms = performance.now() - t0;
console.log(
  `${((N * 4 * PER) / (ms / 1000)).toFixed(0)} msgs/s apply, ${((ms * 1000) / (N * 4 * PER)).toFixed(1)} us/msg; apply cpu ${((cpuApply * 1000) / (N * 4 * PER)).toFixed(1)} us/msg`,
);
