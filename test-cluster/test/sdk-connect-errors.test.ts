/**
 * A wrong endpoint gets an error within seconds (the client's
 * connectTimeoutMs, 3 s by default, not the 30 s call deadline) that names
 * each endpoint tried and why, against a real node: a closed port is
 * refused, the node's HTTP port is named as such with the client port to
 * use, its peer port too, and a URL is refused at once. A subscriber reports
 * the same through its error callback and its logger; a stopped cluster reads
 * as unreachable, not as an election.
 */
import { ConnectError, type FermataError } from '@fermata/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, freePort, startCluster } from '../src/index.js';
import { clientOf, createdTopic, rejection } from './sdk-support.js';
import { eventually } from './support.js';

/** The bound the issue sets; the default connectTimeoutMs (3 s) answers well within it. */
const ANSWER_WITHIN_MS = 5_000;

async function timed<T>(p: Promise<T>): Promise<{ value: T; ms: number }> {
  const t = Date.now();
  const value = await p;
  return { value, ms: Date.now() - t };
}

describe('connection errors name each endpoint and why', () => {
  let cluster: Cluster;
  let closed: string;
  let topic: string;
  beforeAll(async () => {
    cluster = await startCluster({ nodes: 1 });
    closed = `127.0.0.1:${await freePort()}`;
    const client = clientOf(cluster);
    topic = await createdTopic(client, 'connect');
    await client.close();
  });
  afterAll(() => cluster?.stop());

  const node = () => cluster.nodes[0]!;

  it('a closed port: publish fails within seconds with "connection refused"', async () => {
    const client = clientOf(cluster, { endpoints: [closed] });
    try {
      const { value: err, ms } = await timed(rejection(client.publish(topic, 'x'), ConnectError));
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
      expect(err.endpoints).toEqual([
        { endpoint: closed, reason: 'connection refused (nothing listens on that port)' },
      ]);
      expect(err.message).toMatch(
        /^UNAVAILABLE: cannot reach the cluster: no endpoint answered as a Fermata client port/,
      );
    } finally {
      await client.close();
    }
  });

  it("the node's HTTP port and its peer port: named, with the client port to use", async () => {
    const http = node().httpAddress;
    const peer = node().peerAddress;
    const client = clientOf(cluster, { endpoints: [http, peer] });
    try {
      const { value: err, ms } = await timed(rejection(client.publish(topic, 'x'), ConnectError));
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
      const port = (a: string) => Number(a.split(':')[1]);
      expect(err.endpoints).toEqual([
        {
          endpoint: http,
          reason: `the HTTP port of Fermata node n1, not its client port: use ${node().clientAddress}`,
        },
        {
          endpoint: peer,
          reason: `a gRPC server without Fermata's client API: a Fermata peer (Raft) port? use the client port, 127.0.0.1:${port(peer) - 1} in the default layout (client P, peer P+1, HTTP P+2)`,
        },
      ]);
    } finally {
      await client.close();
    }
  });

  it('an http:// endpoint is refused when the client is made, naming what to give', () => {
    const url = `http://${node().clientAddress}`;
    expect(() => clientOf(cluster, { endpoints: [url] })).toThrow(
      new TypeError(
        `endpoints[0]: "${url}" is a URL; give host:port, the node's client port (e.g. "${node().clientAddress}", without http://)`,
      ),
    );
  });

  it('a subscriber reports through onError and its logger: still trying on a closed port, stopped on an HTTP port', async () => {
    const client = clientOf(cluster, { endpoints: [closed] });
    const errors: FermataError[] = [];
    const started = Date.now();
    const sub = client.subscribe(topic, { onError: (e) => errors.push(e) }, () => {});
    await eventually(() => errors.length > 0, 30_000, 'the error callback');
    expect(Date.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
    expect(errors[0]).toBeInstanceOf(ConnectError);
    expect(errors[0]!.message).toContain(`${closed}: connection refused`);
    expect(client.log.filter((l) => l.level === 'error').map((l) => l.message)).toContain(
      'cannot reach the cluster; still trying',
    );
    await sub.close();
    await client.close();

    const wrong = clientOf(cluster, { endpoints: [node().httpAddress] });
    const stopped: FermataError[] = [];
    const t = Date.now();
    const sub2 = wrong.subscribe(topic, { onError: (e) => stopped.push(e) }, () => {});
    const err = await rejection(sub2.done, ConnectError);
    expect(Date.now() - t).toBeLessThan(ANSWER_WITHIN_MS);
    expect(err.message).toContain(`use ${node().clientAddress}`);
    expect(stopped).toEqual([err]);
    expect(wrong.log.some((l) => l.level === 'error' && l.message === 'subscription stopped')).toBe(true);
    await wrong.close();
  });

  it('one good endpoint among bad ones is enough', async () => {
    const client = clientOf(cluster, { endpoints: [closed, node().httpAddress, node().clientAddress] });
    try {
      expect(await client.publish(topic, 'x')).toBeTypeOf('bigint');
    } finally {
      await client.close();
    }
  });

  it('a stopped cluster is unreachable (refused), not an election: the error comes within seconds', async () => {
    const client = clientOf(cluster);
    try {
      await client.publish(topic, 'before');
      await node().stop();
      const { value: err, ms } = await timed(rejection(client.publish(topic, 'x'), ConnectError));
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
      expect(err.endpoints).toEqual([
        { endpoint: node().clientAddress, reason: 'connection refused (nothing listens on that port)' },
      ]);
    } finally {
      await client.close();
      await node().start();
    }
  });
});
