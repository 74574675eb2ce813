import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FermataClient, silentLogger } from '@fermata/sdk';
import { ChaosCluster } from './src/nemesis/cluster.js';

const baseDir = mkdtempSync(join(tmpdir(), 'fermata-dbg-'));
const c = await ChaosCluster.start({ baseDir });
const l = await c.waitForLeader(60_000);
const client = new FermataClient({ endpoints: c.endpoints, deadlineMs: 5_000, logger: silentLogger });
await client.createTopic('t');
console.log('leader', l.id);
for (let i = 0; i < 5; i++) {
  await client.publish('t', `m${i}`);
}
console.log('published 5');
const f = c.nodes.find((n) => n !== l)!;
c.failDisk(f.id);
for (let i = 0; i < 5; i++) {
  try {
    await client.publish('t', `x${i}`);
    console.log('ok', i);
  } catch (e) {
    console.log('err', String(e));
  }
}
await new Promise((r) => setTimeout(r, 2000));
console.log('running', f.handle.running, f.handle.exits);
console.log(f.handle.tail(15));
await c.stop();
