import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { FermataClient, type Logger, UnavailableError } from '../src/index.js';
import { FakeCluster } from './fake-cluster.js';

const quiet: Logger = { debug: () => {}, warn: () => {}, error: () => {} };
const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name));
const ca = fixture('ca.pem');
const serverIdentity = [{ private_key: fixture('server.key'), cert_chain: fixture('server.pem') }];

let cluster: FakeCluster | undefined;
let client: FermataClient | undefined;

afterEach(async () => {
  await client?.close();
  await cluster?.stop();
  client = undefined;
  cluster = undefined;
});

describe('TLS', () => {
  it('publishes over TLS when the client trusts the CA', async () => {
    cluster = await FakeCluster.start(2, 1, grpc.ServerCredentials.createSsl(null, serverIdentity, false));
    client = new FermataClient({ endpoints: cluster.endpoints, tls: { ca: ca.toString() }, logger: quiet });
    await expect(client.publish('t', 'secret')).resolves.toBe(1n);
  });

  it('cannot talk to a TLS cluster in plaintext', async () => {
    cluster = await FakeCluster.start(1, 0, grpc.ServerCredentials.createSsl(null, serverIdentity, false));
    client = new FermataClient({ endpoints: cluster.endpoints, deadlineMs: 300, logger: quiet });
    await expect(client.publish('t', 'x')).rejects.toBeInstanceOf(UnavailableError);
    expect(cluster.stored).toHaveLength(0);
  });

  it('presents the client certificate for mutual TLS, and is refused without one', async () => {
    cluster = await FakeCluster.start(1, 0, grpc.ServerCredentials.createSsl(ca, serverIdentity, true));
    const without = new FermataClient({
      endpoints: cluster.endpoints,
      tls: { ca },
      deadlineMs: 300,
      logger: quiet,
    });
    await expect(without.publish('t', 'x')).rejects.toBeInstanceOf(UnavailableError);
    await without.close();
    client = new FermataClient({
      endpoints: cluster.endpoints,
      tls: { ca, cert: fixture('client.pem'), key: fixture('client.key') },
      logger: quiet,
    });
    await expect(client.publish('t', 'x')).resolves.toBe(1n);
  });
});
