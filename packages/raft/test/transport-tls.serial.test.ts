/**
 * Peer mutual TLS (transport/tls.ts) over real sockets, with certificates made
 * by openssl for this run: each end verifies the other against the CA and
 * checks that its certificate names the node it claims to be.
 */

import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { type pb, type RaftClient, RaftService } from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type PeerClaim,
  PeerTls,
  peerIdentityError,
  StaticTlsSource,
  type TlsMaterial,
} from '../src/transport/tls.js';
import { type CertFiles, TestCa } from './support/certs.js';

let dir: string;
let ca: TestCa;
let otherCa: TestCa;
const certs: Record<string, CertFiles> = {};

function material(files: CertFiles, caFile = ca.cert): TlsMaterial {
  return { cert: readFileSync(files.cert), key: readFileSync(files.key), ca: readFileSync(caFile) };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fermata-peer-tls-'));
  ca = new TestCa(join(dir, 'ca'));
  otherCa = new TestCa(join(dir, 'other'), 'other-ca');
  certs['n1'] = ca.issue('n1', { dns: ['n1'], ip: ['127.0.0.1'], uri: ['fermata-peer:n1'] });
  certs['n2'] = ca.issue('n2', { dns: ['n2'], uri: ['fermata-peer:n2'] });
  certs['n2-expired'] = ca.issue('n2-expired', { dns: ['n2'], expired: true, uri: ['fermata-peer:n2'] });
  certs['n2-rogue'] = otherCa.issue('n2-rogue', { dns: ['n2'], uri: ['fermata-peer:n2'] });
  certs['n3'] = ca.issue('n3', { dns: ['n3'], uri: ['fermata-peer:n3'] });
  certs['n1-next'] = ca.issue('n1-next', { dns: ['n1'], ip: ['127.0.0.1'], uri: ['fermata-peer:n1'] });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RaftCtor = grpc.makeGenericClientConstructor(
  RaftService as unknown as grpc.ServiceDefinition,
  'fermata.v1.Raft',
);

interface Server {
  readonly address: string;
  readonly source: StaticTlsSource;
  readonly callers: Array<{ from: string; problem: string | undefined }>;
  close(): void;
}

const open: Array<{ close(): void }> = [];
afterEach(() => {
  for (const o of open.splice(0)) o.close();
});

/** A peer port of node `id` that admits a batch only from a caller whose certificate names `batch.from`. */
async function startPeerServer(files: CertFiles): Promise<Server> {
  const source = new StaticTlsSource(material(files));
  const tls = new PeerTls(source);
  const server = new grpc.Server();
  const callers: Server['callers'] = [];
  server.addService(RaftService as unknown as grpc.ServiceDefinition, {
    sendMessages: (
      call: grpc.ServerReadableStream<pb.RaftBatch, unknown>,
      cb: grpc.sendUnaryData<pb.RaftBatchResponse.$Properties>,
    ) => {
      call.once('data', (batch: pb.RaftBatch) => {
        const problem = tls.checkCaller(call, { id: batch.from });
        callers.push({ from: batch.from, problem });
        if (problem) cb({ code: grpc.status.PERMISSION_DENIED, details: problem });
        else cb(null, {});
      });
    },
    installSnapshot: () => undefined,
  });
  const port = await new Promise<number>((res, rej) =>
    server.bindAsync('127.0.0.1:0', tls.serverCredentials(), (e, p) => (e ? rej(e) : res(p))),
  );
  const s = { address: `127.0.0.1:${port}`, source, callers, close: () => server.forceShutdown() };
  open.push(s);
  return s;
}

/** One batch from `from` (presenting `files`) to the server, expecting it to be `claim`. */
function send(files: CertFiles, from: string, address: string, claim: PeerClaim, caFile = ca.cert) {
  const tls = new PeerTls(new StaticTlsSource(material(files, caFile)));
  const client = new RaftCtor(address, tls.channelCredentials(claim)) as unknown as RaftClient;
  open.push({ close: () => client.close() });
  return new Promise<grpc.ServiceError | null>((resolve) => {
    const call = client.sendMessages(new grpc.Metadata(), { deadline: Date.now() + 10_000 }, (err) =>
      resolve(err),
    );
    call.write({ clusterId: 'c', from, messages: [] });
    call.end();
  });
}

describe('peer mutual TLS', () => {
  it('two nodes with certificates from the cluster CA that name them talk', async () => {
    const n1 = await startPeerServer(certs['n1']!);
    expect(await send(certs['n2']!, 'n2', n1.address, { id: 'n1', address: n1.address })).toBeNull();
    expect(n1.callers).toEqual([{ from: 'n2', problem: undefined }]);
  });

  it('a caller whose certificate names another node is refused and the reason names both', async () => {
    const n1 = await startPeerServer(certs['n1']!);
    const err = await send(certs['n3']!, 'n2', n1.address, { id: 'n1', address: n1.address });
    expect(err?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(err?.details).toBe('certificate (DNS:n3, URI:fermata-peer:n3) does not name peer "n2"');
  });

  it('a server whose certificate does not name the peer dialled is refused by the caller', async () => {
    const n3 = await startPeerServer(certs['n3']!);
    const err = await send(certs['n2']!, 'n2', n3.address, { id: 'n1', address: 'n1.example:7401' });
    expect(err?.code).toBe(grpc.status.UNAVAILABLE);
    expect(n3.callers).toEqual([]);
  });

  it('a caller with a certificate from another CA never gets a handshake', async () => {
    const n1 = await startPeerServer(certs['n1']!);
    const err = await send(certs['n2-rogue']!, 'n2', n1.address, { id: 'n1', address: n1.address });
    expect(err?.code).toBe(grpc.status.UNAVAILABLE);
    expect(n1.callers).toEqual([]);
  });

  it('a caller trusting another CA refuses the server', async () => {
    const n1 = await startPeerServer(certs['n1']!);
    const err = await send(certs['n2']!, 'n2', n1.address, { id: 'n1', address: n1.address }, otherCa.cert);
    expect(err?.code).toBe(grpc.status.UNAVAILABLE);
    expect(n1.callers).toEqual([]);
  });

  it('a caller with an expired certificate is refused', async () => {
    const n1 = await startPeerServer(certs['n1']!);
    const err = await send(certs['n2-expired']!, 'n2', n1.address, { id: 'n1', address: n1.address });
    expect(err?.code).toBe(grpc.status.UNAVAILABLE);
    expect(n1.callers).toEqual([]);
  });

  it('a reloaded certificate is presented to new connections without a restart', async () => {
    const n1 = await startPeerServer(certs['n1']!);
    const shown = () =>
      new Promise<string>((resolve, reject) => {
        const m = material(certs['n2']!);
        const socket = connect(
          {
            host: '127.0.0.1',
            port: Number(n1.address.split(':')[1]),
            ca: m.ca,
            cert: m.cert,
            key: m.key,
            ALPNProtocols: ['h2'],
            checkServerIdentity: () => undefined,
          },
          () => {
            resolve(socket.getPeerCertificate().serialNumber);
            socket.destroy();
          },
        );
        socket.on('error', reject);
      });
    const before = await shown();
    expect(await send(certs['n2']!, 'n2', n1.address, { id: 'n1' })).toBeNull();
    n1.source.set(material(certs['n1-next']!));
    const after = await shown();
    expect(after).not.toBe(before);
    expect(after).toBe(new X509Certificate(readFileSync(certs['n1-next']!.cert)).serialNumber);
    expect(await send(certs['n2']!, 'n2', n1.address, { id: 'n1' })).toBeNull();
  });
});

describe('peer identity rules', () => {
  const cert = (san: string) => ({ subjectaltname: san, subject: {} as never });
  it('a SAN equal to the node id names it', () => {
    expect(peerIdentityError(cert('DNS:n1'), { id: 'n1' })).toBeUndefined();
  });
  it('a SAN equal to the host of the peer address names it, wildcards in the first label only', () => {
    const claim = { id: 'fermata-0', address: 'fermata-0.fermata.ns.svc.cluster.local:7401' };
    expect(peerIdentityError(cert('DNS:*.fermata.ns.svc.cluster.local'), claim)).toBeUndefined();
    expect(peerIdentityError(cert('DNS:*.ns.svc.cluster.local'), claim)).toMatch(/does not name/);
    expect(
      peerIdentityError(cert('IP Address:10.0.0.7'), { id: 'x', address: '10.0.0.7:7401' }),
    ).toBeUndefined();
  });
  it('no certificate, or no matching SAN, is an identity error', () => {
    expect(peerIdentityError(undefined, { id: 'n1' })).toMatch(/no certificate/);
    expect(peerIdentityError(cert('DNS:n2, IP Address:10.0.0.1'), { id: 'n1', address: '10.0.0.2:1' })).toBe(
      'certificate (DNS:n2, IP:10.0.0.1) does not name peer "n1" at 10.0.0.2:1',
    );
  });
});
