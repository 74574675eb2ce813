/**
 * Any node, any address: a client that reaches one follower's client port
 * and nothing else, as through `kubectl -n fermata port-forward svc/fermata
 * 7400:7400` (docs/operations.md). The nodes advertise names only the cluster
 * resolves (`nX.fermata.internal`, reached by the nodes through a CONNECT
 * proxy standing in for the cluster's DNS); the client process cannot
 * resolve them. The SDK finds the leader's name unresolvable and sends its
 * calls and streams to the node it reached, which forwards them to the
 * leader; the CLI does the same.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server, connect as tcpConnect } from 'node:net';
import { promisify } from 'node:util';
import type { Message } from '@fermata/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConnectProxy } from '../src/containers/connect-proxy.js';
import {
  type Cluster,
  fermataArgv,
  freePort,
  type NodeHandle,
  REPO_ROOT,
  startCluster,
} from '../src/index.js';
import { clientOf } from './sdk-support.js';
import { eventually } from './support.js';

const run = promisify(execFile);
const name = (i: number) => `n${i + 1}.fermata.internal`;

/** A TCP forwarder from a local port to `target`, as `kubectl port-forward` is. */
async function portForward(target: number): Promise<{ port: number; server: Server }> {
  const server = createServer((client) => {
    const upstream = tcpConnect(target, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, server };
}

describe('a client that reaches one follower only', () => {
  let cluster: Cluster;
  let proxy: Awaited<ReturnType<typeof startConnectProxy>>;
  let forward: { port: number; server: Server };
  let leader: NodeHandle;
  let follower: NodeHandle;

  beforeAll(async () => {
    const ports = [];
    for (let i = 0; i < 3; i++)
      ports.push({ client: await freePort(), peer: await freePort(), http: await freePort() });
    // The cluster's DNS: the nodes' names lead to their ports on this host.
    proxy = await startConnectProxy((host, port) =>
      host.endsWith('.fermata.internal') || host === '127.0.0.1' ? { host: '127.0.0.1', port } : undefined,
    );
    const members = ports.map((p, i) => `n${i + 1}=127.0.0.1:${p.peer}/${name(i)}:${p.client}`).join(',');
    cluster = await startCluster({
      nodes: 3,
      ports,
      env: { FERMATA_INITIAL_MEMBERS: members, grpc_proxy: proxy.url, no_grpc_proxy: '127.0.0.1' },
      nodeEnv: Object.fromEntries(
        ports.map((p, i) => [`n${i + 1}`, { FERMATA_CLIENT__ADVERTISE_ADDRESS: `${name(i)}:${p.client}` }]),
      ),
    });
    leader = await cluster.leader();
    follower = cluster.others(leader)[0]!;
    forward = await portForward(Number(follower.clientAddress.split(':')[1]));
  });
  afterAll(async () => {
    forward?.server.close();
    await cluster?.stop();
    await proxy?.close();
  });

  it('the SDK publishes, consumes and produces through it; the leader is named by its in-cluster name', async () => {
    const client = clientOf(cluster, { endpoints: [`127.0.0.1:${forward.port}`] });
    try {
      const info = await client.clusterInfo();
      expect(info.leaderAddress).toMatch(/^n\d\.fermata\.internal:\d+$/);
      await client.createTopic('through-one');
      const id = await client.publish('through-one', 'hello through a port-forward');
      expect(client.log.some((l) => l.message.startsWith('the leader is out of reach from here'))).toBe(true);
      const producer = client.producer({ lingerMs: 1 });
      const sent = await Promise.all([
        producer.send('through-one', 'p1'),
        producer.send('through-one', 'p2'),
      ]);
      await producer.close();
      const got: Message[] = [];
      const sub = client.subscribe('through-one', async (m) => {
        got.push(m);
      });
      await eventually(() => got.length === 3, 30_000, 'three deliveries through the follower');
      await sub.close();
      expect(got.map((m) => m.id).sort()).toEqual([id, ...sent.map((r) => r.id)].sort());
      expect((await client.topicStats('through-one')).groups[0]).toMatchObject({ pending: 0, inFlight: 0 });
    } finally {
      await client.close();
    }
  });

  it('the CLI as docs/operations.md shows it: status, publish and consume through the forwarded port', async () => {
    const env = { ...process.env, FERMATA_ENDPOINTS: `127.0.0.1:${forward.port}` };
    const cli = (args: string[]) => run(process.execPath, fermataArgv(args), { cwd: REPO_ROOT, env });
    const status = JSON.parse((await cli(['status', '--json'])).stdout) as { leaderId: string };
    expect(status.leaderId).toBe(leader.id);
    await cli(['topics', 'create', 'cli-through-one']);
    await cli(['publish', 'cli-through-one', 'hello from the laptop']);
    const consumed = await cli(['consume', 'cli-through-one', '--count', '1', '--timeout', '30s']);
    expect(consumed.stdout).toBe('hello from the laptop\n');
  });
});
