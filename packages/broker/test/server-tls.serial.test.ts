import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CertFiles, TestCa } from '../../raft/test/support/certs.js';
import { loadConfig } from '../src/server/config.js';
import { securityConfigProblems, setupSecurity } from '../src/server/security.js';
import { isLoopbackAddress, plaintextWarning, TlsConfigError, TlsFiles } from '../src/server/tls.js';

let dir: string;
let ca: TestCa;
let a: CertFiles;
let b: CertFiles;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fermata-server-tls-'));
  ca = new TestCa(join(dir, 'ca'));
  a = ca.issue('a', { dns: ['localhost'] });
  b = ca.issue('b', { dns: ['localhost'] });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lines() {
  const out: string[] = [];
  return {
    out,
    log: {
      info: (_f: object, m: string) => out.push(`info ${m}`),
      warn: (_f: object, m: string) => out.push(`warn ${m}`),
    },
  };
}

describe('TLS files', () => {
  it('a missing file or a key that does not match the certificate stops the start, naming the files', () => {
    expect(
      () =>
        new TlsFiles({
          certFile: join(dir, 'nope.pem'),
          keyFile: a.key,
          caFile: '',
          reloadIntervalMs: 0,
          label: 'client',
        }),
    ).toThrow(/cannot read the certificate file .*nope\.pem/);
    expect(
      () =>
        new TlsFiles({
          certFile: a.cert,
          keyFile: b.key,
          caFile: ca.cert,
          reloadIntervalMs: 0,
          label: 'client',
        }),
    ).toThrow(TlsConfigError);
  });

  it('a rotation applies once certificate and key match again; in between the previous pair stays', () => {
    const cert = join(dir, 'tls.crt');
    const key = join(dir, 'tls.key');
    copyFileSync(a.cert, cert);
    copyFileSync(a.key, key);
    const { out, log } = lines();
    const files = new TlsFiles({
      certFile: cert,
      keyFile: key,
      caFile: ca.cert,
      reloadIntervalMs: 0,
      label: 'client',
      log,
    });
    const changes: Buffer[] = [];
    files.onChange((m) => changes.push(m.cert));
    expect(files.check()).toBe(false);
    copyFileSync(b.key, key); // half-way: new key, old certificate
    expect(files.check()).toBe(false);
    expect(files.check()).toBe(false);
    expect(files.current().key.equals(readFileSync(a.key))).toBe(true);
    expect(out.filter((l) => l.startsWith('warn'))).toHaveLength(1);
    copyFileSync(b.cert, cert);
    expect(files.check()).toBe(true);
    expect(changes).toHaveLength(1);
    expect(changes[0]?.equals(readFileSync(b.cert))).toBe(true);
    expect(out.at(-1)).toBe('info client TLS certificate reloaded');
    files.close();
  });

  it('an expired certificate is loaded with a warning (the handshake then fails for peers that check)', () => {
    const old = ca.issue('old', { dns: ['localhost'], expired: true });
    const { out, log } = lines();
    new TlsFiles({
      certFile: old.cert,
      keyFile: old.key,
      caFile: '',
      reloadIntervalMs: 0,
      label: 'peer',
      log,
    }).close();
    expect(out).toEqual(['warn peer TLS certificate is not valid now']);
  });
});

describe('plaintext and configuration warnings', () => {
  it('plaintext is worth a warning on every address but loopback', () => {
    expect(isLoopbackAddress('127.0.0.1:7400')).toBe(true);
    expect(isLoopbackAddress('localhost:7400')).toBe(true);
    expect(isLoopbackAddress('[::1]:7400')).toBe(true);
    expect(isLoopbackAddress('0.0.0.0:7400')).toBe(false);
    expect(plaintextWarning('client', '127.0.0.1:7400', false)).toBeUndefined();
    expect(plaintextWarning('client', '0.0.0.0:7400', true)).toBeUndefined();
    expect(plaintextWarning('peer', '10.0.0.5:7401', false)).toMatch(
      /^peer port 10.0.0.5:7401 serves PLAINTEXT/,
    );
  });

  it('half-configured TLS is a configuration error naming the keys', () => {
    const c = loadConfig({
      overrides: {
        client: { tls: { certFile: 'x.pem', keyFile: '', caFile: '', requireClientCert: true } },
        peer: { tls: { certFile: 'p.pem', keyFile: 'p.key', caFile: '', verifyIdentity: true } },
      },
    });
    expect(securityConfigProblems(c)).toEqual([
      'client.tls.certFile and client.tls.keyFile must be set together',
      'client.tls.requireClientCert needs client.tls.caFile (the CA of the client certificates)',
      'peer.tls.certFile, peer.tls.keyFile and peer.tls.caFile must be set together (mutual TLS)',
    ]);
  });

  it('a node started in plaintext on a wildcard address without tokens says so', () => {
    const { out, log } = lines();
    const s = setupSecurity({ config: loadConfig({}), log, topicOfQueue: async () => undefined });
    expect(out).toEqual([
      expect.stringMatching(/^warn client port 0.0.0.0:7400 serves PLAINTEXT/),
      expect.stringMatching(/^warn peer port 0.0.0.0:7401 serves PLAINTEXT/),
      expect.stringMatching(/^warn peer port 0.0.0.0:7401 authenticates no caller/),
      'warn authentication OFF: no auth.tokensFile configured, every client may call everything',
    ]);
    expect(s.clientServerOptions.interceptors).toBeUndefined();
    expect(s.peerTls).toBeUndefined();
    s.close();
  });

  it('a node with a cluster secret and no peer TLS off loopback warns that the secret goes in clear', () => {
    const file = join(dir, 'secret');
    writeFileSync(file, 'f'.repeat(32));
    const { out, log } = lines();
    const s = setupSecurity({
      config: loadConfig({ overrides: { peer: { secretFile: file } } }),
      log,
      topicOfQueue: async () => undefined,
    });
    expect(out).toContainEqual(
      expect.stringMatching(
        /^warn peer port 0.0.0.0:7401 sends the cluster secret \(peer.secretFile\) in clear/,
      ),
    );
    expect(out.some((l) => l.includes('authenticates no caller'))).toBe(false);
    s.close();
  });

  it('with mutual TLS and no tokens, the node warns that the HTTP API is closed, or open when opened', () => {
    const tls = { certFile: a.cert, keyFile: a.key, caFile: ca.cert, requireClientCert: true };
    const warnings = (http: { apiWithoutAuth?: boolean }) => {
      const { out, log } = lines();
      const s = setupSecurity({
        config: loadConfig({ overrides: { client: { tls }, http } }),
        log,
        topicOfQueue: async () => undefined,
      });
      s.close();
      return out.filter((l) => l.includes('HTTP API'));
    };
    expect(warnings({})).toEqual([
      expect.stringMatching(/^warn the HTTP API is closed: .*http\.apiWithoutAuth: true/),
    ]);
    expect(warnings({ apiWithoutAuth: true })).toEqual([
      expect.stringMatching(/^warn the HTTP API is open \(http\.apiWithoutAuth\): anyone/),
    ]);
  });

  it('with certificates and tokens nothing is plaintext and authentication is on', () => {
    const tokens = join(dir, 'tokens.yaml');
    writeFileSync(tokens, `tokens:\n  - {name: t, sha256: ${'a'.repeat(64)}, admin: ["*"]}\n`);
    const tls = { certFile: a.cert, keyFile: a.key, caFile: ca.cert };
    const { out, log } = lines();
    const s = setupSecurity({
      config: loadConfig({
        overrides: {
          client: { tls: { ...tls, requireClientCert: true } },
          peer: { tls: { ...tls, verifyIdentity: true } },
          auth: { tokensFile: tokens },
        },
      }),
      log,
      topicOfQueue: async () => undefined,
    });
    expect(out.filter((l) => l.startsWith('warn'))).toEqual([]);
    expect(out).toContain('info authentication on');
    expect(s.clientServerOptions.interceptors).toHaveLength(1);
    expect(s.peerTls).toBeDefined();
    s.close();
  });
});
