/**
 * The client port of a real `fermata serve` process with mutual TLS and
 * tokens: clients with the right certificate and token get through; a wrong
 * CA, an expired certificate, a server name that does not match, no
 * certificate at all are refused at the handshake; every token permission
 * case gets UNAUTHENTICATED or PERMISSION_DENIED naming the permission and
 * topic; a rotated certificate or token file takes effect without a restart
 * while connected clients carry on.
 */

import { spawnSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { makeClient, type pb } from '@fermata/protocol';
import { FermataClient, type Logger, type Message } from '@fermata/sdk';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CertFiles, TestCa } from '../../packages/raft/test/support/certs.js';
import { type Cluster, fermataArgv, REPO_ROOT, sleep, startCluster } from '../src/index.js';

const quiet: Logger = { debug: () => {}, warn: () => {}, error: () => {} };
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const TOKENS = {
  producer: 'producer-token-7f3a9c2e5b1d4f6a8c0e2b4d6f8a0c2e',
  consumer: 'consumer-token-1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a',
  ops: 'ops-token-9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b',
  rotated: 'rotated-token-0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d',
};

function tokenFile(
  entries: Array<{ name: string; token: string; publish?: string[]; consume?: string[]; admin?: string[] }>,
): string {
  return `tokens:\n${entries
    .map(
      (e) =>
        `  - name: ${e.name}\n    sha256: ${sha256(e.token)}\n    publish: ${JSON.stringify(e.publish ?? [])}\n    consume: ${JSON.stringify(e.consume ?? [])}\n    admin: ${JSON.stringify(e.admin ?? [])}\n`,
    )
    .join('')}`;
}

const BASE_TOKENS = [
  { name: 'orders-producer', token: TOKENS.producer, publish: ['orders.*'] },
  { name: 'orders-consumer', token: TOKENS.consumer, consume: ['orders.*'] },
  { name: 'ops', token: TOKENS.ops, admin: ['*'], publish: ['*'], consume: ['*'] },
];

describe('client port over mutual TLS with tokens', () => {
  let dir: string;
  let ca: TestCa;
  let other: TestCa;
  let cluster: Cluster;
  let client: CertFiles;
  let serverFiles: { cert: string; key: string; ca: string; tokens: string };
  const clients: FermataClient[] = [];

  const pem = (f: string) => readFileSync(f);
  function sdk(
    token: string | undefined,
    tls: { ca?: string; cert?: string; key?: string; serverName?: string } = {},
  ) {
    const c = new FermataClient({
      endpoints: [...cluster.endpoints],
      tls: {
        ca: pem(tls.ca ?? ca.cert),
        cert: pem(tls.cert ?? client.cert),
        key: pem(tls.key ?? client.key),
        ...(tls.serverName ? { serverName: tls.serverName } : {}),
      },
      ...(token ? { token } : {}),
      deadlineMs: 10_000,
      logger: quiet,
    });
    clients.push(c);
    return c;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-sec-client-'));
    ca = new TestCa(join(dir, 'ca'));
    other = new TestCa(join(dir, 'other'), 'other-ca');
    const server = ca.issue('server', { dns: ['localhost'], ip: ['127.0.0.1'] });
    client = ca.issue('client', { dns: ['client'] });
    serverFiles = {
      cert: join(dir, 'tls.crt'),
      key: join(dir, 'tls.key'),
      ca: join(dir, 'ca.crt'),
      tokens: join(dir, 'tokens.yaml'),
    };
    copyFileSync(server.cert, serverFiles.cert);
    copyFileSync(server.key, serverFiles.key);
    copyFileSync(ca.cert, serverFiles.ca);
    writeFileSync(serverFiles.tokens, tokenFile(BASE_TOKENS));
    cluster = await startCluster({
      nodes: 1,
      waitForLeader: true,
      httpToken: TOKENS.ops,
      env: {
        FERMATA_CLIENT__TLS__CERT_FILE: serverFiles.cert,
        FERMATA_CLIENT__TLS__KEY_FILE: serverFiles.key,
        FERMATA_CLIENT__TLS__CA_FILE: serverFiles.ca,
        FERMATA_CLIENT__TLS__REQUIRE_CLIENT_CERT: 'true',
        FERMATA_AUTH__TOKENS_FILE: serverFiles.tokens,
        FERMATA_CREDENTIALS_RELOAD_INTERVAL_MS: '200',
      },
    });
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a client with a certificate from the CA and a token publishes and consumes end to end', async () => {
    const producer = sdk(TOKENS.producer);
    const consumer = sdk(TOKENS.consumer);
    const id = await producer.publish('orders.created', 'over mTLS');
    const got = await new Promise<Message>((resolve) => {
      consumer.subscribe('orders.created', (m) => resolve(m));
    });
    expect(got.id).toBe(id);
    expect(Buffer.from(got.payload).toString()).toBe('over mTLS');
    const start = cluster.nodes[0]!.logLines('authentication on');
    expect(start).toHaveLength(1);
  });

  it('no client certificate, another CA, an expired certificate or a server name that does not match: no connection', async () => {
    const expired = ca.issue('client-expired', { dns: ['client'], expired: true });
    const rogue = other.issue('client-rogue', { dns: ['client'] });
    const attempts: Array<[string, () => FermataClient]> = [
      [
        'no client certificate',
        () => {
          const c = new FermataClient({
            endpoints: [...cluster.endpoints],
            tls: { ca: pem(ca.cert) },
            token: TOKENS.ops,
            deadlineMs: 1_500,
            logger: quiet,
          });
          clients.push(c);
          return c;
        },
      ],
      ['a client certificate from another CA', () => sdk(TOKENS.ops, { cert: rogue.cert, key: rogue.key })],
      ['a client trusting another CA', () => sdk(TOKENS.ops, { ca: other.cert })],
      ['an expired client certificate', () => sdk(TOKENS.ops, { cert: expired.cert, key: expired.key })],
      [
        'a server name the certificate does not carry',
        () => sdk(TOKENS.ops, { serverName: 'not-fermata.example' }),
      ],
    ];
    for (const [name, make] of attempts) {
      const c = make();
      await expect(c.clusterInfo({ deadlineMs: 1_500 }), name).rejects.toMatchObject({
        code: expect.toSatisfy(
          (code: number) => code === grpc.status.UNAVAILABLE || code === grpc.status.DEADLINE_EXCEEDED,
        ),
      });
    }
  });

  it('tokens: missing or unknown is UNAUTHENTICATED; each permission is checked per topic', async () => {
    await expect(sdk(undefined).publish('orders.a', 'x')).rejects.toMatchObject({
      code: grpc.status.UNAUTHENTICATED,
    });
    await expect(sdk('not-a-token').publish('orders.a', 'x')).rejects.toMatchObject({
      code: grpc.status.UNAUTHENTICATED,
    });
    const producer = sdk(TOKENS.producer);
    const consumer = sdk(TOKENS.consumer);
    const ops = sdk(TOKENS.ops);
    const denied = (permission: string, topic: string, name: string) => ({
      code: grpc.status.PERMISSION_DENIED,
      message: expect.stringContaining(
        `token "${name}" lacks permission "${permission}" on topic "${topic}"`,
      ),
    });
    // publish
    await expect(producer.publish('orders.a', 'ok')).resolves.toBeTypeOf('bigint');
    await expect(producer.publish('billing', 'x')).rejects.toMatchObject(
      denied('publish', 'billing', 'orders-producer'),
    );
    await expect(consumer.publish('orders.a', 'x')).rejects.toMatchObject(
      denied('publish', 'orders.a', 'orders-consumer'),
    );
    // consume (read calls)
    await expect(consumer.listMessages('orders.a')).resolves.toBeDefined();
    await expect(producer.listMessages('orders.a')).rejects.toMatchObject(
      denied('consume', 'orders.a', 'orders-producer'),
    );
    // admin
    await expect(ops.createTopic('billing')).resolves.toMatchObject({ name: 'billing' });
    await expect(producer.createTopic('orders.new')).rejects.toMatchObject(
      denied('admin', 'orders.new', 'orders-producer'),
    );
    await expect(consumer.topicStats('orders.a')).rejects.toMatchObject(
      denied('admin', 'orders.a', 'orders-consumer'),
    );
    await expect(consumer.transferLeadership()).rejects.toMatchObject({
      code: grpc.status.PERMISSION_DENIED,
      message: expect.stringContaining('on all topics'),
    });
    // A token that may not touch a topic cannot subscribe to it either.
    const sub = consumer.subscribe('billing', { prefetch: 1 }, () => undefined);
    await expect(sub.done).rejects.toMatchObject({ code: grpc.status.PERMISSION_DENIED });
  });

  it('acking a delivery tag needs consume on the topic of the tag', async () => {
    const ops = sdk(TOKENS.ops);
    await ops.publish('billing', 'invoice');
    const got = await new Promise<Message>((resolve) => {
      ops.subscribe('billing', { mode: 'manual', prefetch: 1 }, (m) => resolve(m));
    });
    const broker = makeClient(
      'Broker',
      cluster.endpoints[0] as string,
      grpc.credentials.createSsl(pem(ca.cert), pem(client.key), pem(client.cert)),
    );
    const md = new grpc.Metadata();
    md.set('authorization', `Bearer ${TOKENS.consumer}`);
    const err = await new Promise<grpc.ServiceError | null>((resolve) =>
      broker.ack({ tags: [got.tag] }, md, {}, (e: grpc.ServiceError | null, _r?: pb.AckResponse) =>
        resolve(e),
      ),
    );
    broker.close();
    expect(err?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(err?.details).toContain('lacks permission "consume" on topic "billing"');
    await got.ack();
  });

  it('the CLI takes the token and the TLS files', () => {
    const cli = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, fermataArgv(args), {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { ...process.env, ...env },
        timeout: 60_000,
      });
    const tlsArgs = [
      '--endpoints',
      cluster.endpoints[0] as string,
      '--tls-ca',
      ca.cert,
      '--tls-cert',
      client.cert,
      '--tls-key',
      client.key,
    ];
    const ok = cli(['status', '--json', ...tlsArgs], { FERMATA_TOKEN: TOKENS.ops });
    expect(ok.status, ok.stderr).toBe(0);
    const refused = cli(['status', '--deadline', '3s', ...tlsArgs]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/UNAUTHENTICATED/);
  });

  it('a rotated certificate and token file apply without a restart; connected clients carry on', async () => {
    const producer = sdk(TOKENS.ops);
    const consumer = sdk(TOKENS.ops);
    const seen: string[] = [];
    // The publish creates the topic (consuming never does).
    await producer.publish('orders.rotation', 'before');
    consumer.subscribe('orders.rotation', (m) => {
      seen.push(Buffer.from(m.payload).toString());
    });
    await waitUntil(() => seen.includes('before'));
    const shown = () =>
      new Promise<string>((resolve, reject) => {
        const [host, port] = (cluster.endpoints[0] as string).split(':') as [string, string];
        const s = connect(
          {
            host,
            port: Number(port),
            ca: pem(ca.cert),
            cert: pem(client.cert),
            key: pem(client.key),
            ALPNProtocols: ['h2'],
            servername: 'localhost',
          },
          () => {
            resolve(s.getPeerCertificate().serialNumber);
            s.destroy();
          },
        );
        s.on('error', reject);
      });
    const before = await shown();
    const next = ca.issue('server-next', { dns: ['localhost'], ip: ['127.0.0.1'] });
    // Key first, then certificate: in between the pair does not match and the old one stays.
    copyFileSync(next.key, serverFiles.key);
    await sleep(400);
    copyFileSync(next.cert, serverFiles.cert);
    writeFileSync(
      serverFiles.tokens,
      tokenFile([...BASE_TOKENS, { name: 'rotated', token: TOKENS.rotated, publish: ['orders.*'] }]),
    );
    const want = new X509Certificate(pem(next.cert)).serialNumber;
    await waitUntil(async () => (await shown()) === want, 10_000);
    expect(before).not.toBe(want);
    // The consumer's stream opened before the rotation still delivers.
    await producer.publish('orders.rotation', 'after');
    await waitUntil(() => seen.includes('after'));
    // The new token works on a new client.
    await waitUntil(
      async () =>
        sdk(TOKENS.rotated)
          .publish('orders.rotation', 'rotated-token')
          .then(
            () => true,
            () => false,
          ),
      10_000,
    );
    const node = cluster.nodes[0]!;
    expect(node.logLines('client TLS certificate reloaded').length).toBeGreaterThan(0);
    expect(node.logLines('token file reloaded').length).toBeGreaterThan(0);
  });
});

async function waitUntil(cond: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(50);
  }
}
