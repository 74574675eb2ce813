// A member that missed the entry adding the current leader (real RaftNodes, real files, gRPC
// with peer mutual TLS over loopback): it holds no address for that leader, and catches up from
// it because the leader's peer certificate proves who it is (peer-admission.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PeerTls, StaticTlsSource } from '../src/transport/tls.js';
import { encodePut } from './fixtures/kv-state-machine.js';
import { freePort, NodeGroup, until } from './fixtures/node-group.js';
import { type CertFiles, TestCa } from './support/certs.js';

let dir: string;
let ca: TestCa;
const certs: Record<string, CertFiles> = {};
let group: NodeGroup | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fermata-admission-tls-'));
  ca = new TestCa(join(dir, 'ca'));
  for (const id of ['a', 'b', 'c', 'd']) certs[id] = ca.issue(id, { dns: [id], uri: [`fermata-peer:${id}`] });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await group?.close();
  group = undefined;
});

const tlsOf = (id: string) => {
  const files = certs[id] as CertFiles;
  return {
    tls: new PeerTls(
      new StaticTlsSource({
        cert: readFileSync(files.cert),
        key: readFileSync(files.key),
        ca: readFileSync(ca.cert),
      }),
    ),
  };
};

describe('peer admission with peer TLS: a member behind the configuration', () => {
  it('a member that missed the entry adding the leader catches up from it: the leader certificate proves its identity', async () => {
    group = await NodeGroup.start(['a', 'b', 'c'], tlsOf);
    const g = group;
    await g.write(5);
    const bootstrap = { ...g.members };

    // c goes down; d is added and becomes the leader while c cannot hear of it.
    await g.stop('c');
    g.members['d'] = { peerAddress: `127.0.0.1:${await freePort()}`, clientAddress: 'client-of-d:1' };
    const d = await g.open('d', { ...bootstrap, d: g.members['d'] }, { join: true, transport: tlsOf('d') });
    const leader = await g.leader();
    const address = g.members['d'];
    await leader.node.addMember('d', address.peerAddress, address.clientAddress);
    await leader.node.transferLeadership('d');
    await until('d to lead', () => d.node.status().role === 'leader');
    for (let i = 0; i < 5; i++) await d.node.propose(encodePut(`after${i}`, Buffer.from('v')));

    // a and b restart, so no message for c that they queued before d led (an append holding
    // the entries that add d) is still waiting in their streams.
    for (const id of ['a', 'b']) {
      await g.stop(id);
      await g.open(id, bootstrap, { transport: tlsOf(id) });
    }
    await until('d to lead a and b again', () =>
      ['a', 'b'].every((id) => g.get(id).node.status().leader === 'd'),
    );

    // c restarts on its own files: its configuration and book know a, b, c only.
    const back = await g.open('c', bootstrap, { transport: tlsOf('c') });
    expect(back.node.memberAddresses('d')).toBeUndefined();
    const commit = d.node.status().commit;
    await until('c to apply what d committed', () => back.node.status().applied >= commit, 30_000);
    expect(Buffer.from((await back.sm.get('after4')) ?? []).toString()).toBe('v');
    expect(back.node.status().leader).toBe('d');
  }, 90_000);
});
