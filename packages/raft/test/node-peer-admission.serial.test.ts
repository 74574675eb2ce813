// A member that missed the entry adding the current leader (real RaftNodes, real files, gRPC
// over loopback): it holds no address for that leader, and catches up from it when the
// connection authenticated the leader, by a peer certificate naming it or by the cluster secret
// (peer-admission.ts). On a plaintext connection nothing proves the sender, so the member keeps
// refusing it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PeerTls, StaticTlsSource } from '../src/transport/tls.js';
import { encodePut } from './fixtures/kv-state-machine.js';
import { freePort, type GroupNode, NodeGroup, sleep, until } from './fixtures/node-group.js';
import { type CertFiles, TestCa } from './support/certs.js';

let dir: string;
let ca: TestCa;
const certs: Record<string, CertFiles> = {};
let group: NodeGroup | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fermata-admission-'));
  ca = new TestCa(join(dir, 'ca'));
  for (const id of ['a', 'b', 'c', 'd']) certs[id] = ca.issue(id, { dns: [id], uri: [`fermata-peer:${id}`] });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await group?.close();
  group = undefined;
});

type TransportOf = (id: string) => { tls?: PeerTls; secret?: string };

const tlsOf: TransportOf = (id) => {
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
const secretOf: TransportOf = () => ({ secret: 'cluster-secret-0123456789' });
const plaintextOf: TransportOf = () => ({});

/**
 * a, b, c run; c goes down while d is added and takes the lead; a and b restart (so no append
 * for c queued before d led, holding the entries that add d, is still waiting in their
 * streams); c restarts on its own files, its configuration and book knowing a, b, c only.
 */
async function memberThatMissedTheLeader(
  transportOf: TransportOf,
): Promise<{ g: NodeGroup; d: GroupNode; back: GroupNode }> {
  group = await NodeGroup.start(['a', 'b', 'c'], transportOf);
  const g = group;
  await g.write(5);
  const bootstrap = { ...g.members };

  await g.stop('c');
  g.members['d'] = { peerAddress: `127.0.0.1:${await freePort()}`, clientAddress: 'client-of-d:1' };
  const d = await g.open(
    'd',
    { ...bootstrap, d: g.members['d'] },
    { join: true, transport: transportOf('d') },
  );
  const leader = await g.leader();
  const address = g.members['d'];
  await leader.node.addMember('d', address.peerAddress, address.clientAddress);
  await leader.node.transferLeadership('d');
  await until('d to lead', () => d.node.status().role === 'leader');
  for (let i = 0; i < 5; i++) await d.node.propose(encodePut(`after${i}`, Buffer.from('v')));

  for (const id of ['a', 'b']) {
    await g.stop(id);
    await g.open(id, bootstrap, { transport: transportOf(id) });
  }
  await until('d to lead a and b again', () =>
    ['a', 'b'].every((id) => g.get(id).node.status().leader === 'd'),
  );

  const back = await g.open('c', bootstrap, { transport: transportOf('c') });
  expect(back.node.memberAddresses('d')).toBeUndefined();
  return { g, d, back };
}

describe('peer admission: a member behind the configuration', () => {
  for (const [name, transportOf] of [
    ['peer TLS (the leader certificate names it)', tlsOf],
    ['the cluster secret', secretOf],
  ] as const) {
    it(`a member that missed the entry adding the leader catches up from it, with ${name}`, async () => {
      const { d, back } = await memberThatMissedTheLeader(transportOf);
      const commit = d.node.status().commit;
      await until('c to apply what d committed', () => back.node.status().applied >= commit, 30_000);
      expect(Buffer.from((await back.sm.get('after4')) ?? []).toString()).toBe('v');
      expect(back.node.status().leader).toBe('d');
    }, 90_000);
  }

  it('on a plaintext peer port, a member that missed the entry adding the leader refuses it: nothing proves the sender', async () => {
    const { d, back } = await memberThatMissedTheLeader(plaintextOf);
    await until('c to refuse d', () => back.node.status().counters.peerRefused['not-member'] >= 3, 30_000);
    await sleep(500);
    expect(back.node.status().applied).toBeLessThan(d.node.status().commit);
    expect(back.node.memberAddresses('d')).toBeUndefined();
  }, 90_000);
});
