// The peer port's authentication settings: the cluster secret file and the
// start-up warning for a peer port that authenticates nobody.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPeerSecret, secretInClearWarning, unauthenticatedPeerWarning } from '../src/server/security.js';
import { TlsConfigError } from '../src/server/tls.js';

const dir = mkdtempSync(join(tmpdir(), 'fermata-peer-auth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('peer authentication settings', () => {
  it('peer.secretFile is read once and trimmed; an unset key means no secret', () => {
    const file = join(dir, 'secret');
    writeFileSync(file, '  0123456789abcdef0123\n');
    expect(readPeerSecret(file)).toBe('0123456789abcdef0123');
    expect(readPeerSecret('')).toBeUndefined();
  });

  it('a secret shorter than MIN_PEER_SECRET_LENGTH or a missing file is refused, naming peer.secretFile', () => {
    const short = join(dir, 'short');
    writeFileSync(short, 'abc\n');
    expect(() => readPeerSecret(short)).toThrow(TlsConfigError);
    expect(() => readPeerSecret(short)).toThrow(/peer.secretFile .*MIN_PEER_SECRET_LENGTH.*got 3/);
    expect(() => readPeerSecret(join(dir, 'missing'))).toThrow(/peer.secretFile .*missing/);
  });

  it('warns at start-up when the peer port is off loopback with neither a secret nor TLS', () => {
    expect(unauthenticatedPeerWarning('0.0.0.0:7401', false, false)).toMatch(
      /peer port 0.0.0.0:7401 authenticates no caller.*peer.secretFile/,
    );
    expect(unauthenticatedPeerWarning('10.0.0.5:7401', false, true)).toBeUndefined();
    expect(unauthenticatedPeerWarning('10.0.0.5:7401', true, false)).toBeUndefined();
    expect(unauthenticatedPeerWarning('127.0.0.1:7401', false, false)).toBeUndefined();
  });

  it('warns at start-up when a cluster secret goes in clear: set, no peer TLS, off loopback', () => {
    expect(secretInClearWarning('10.0.0.5:7401', false, true)).toMatch(
      /peer port 10.0.0.5:7401 sends the cluster secret \(peer.secretFile\) in clear.*peer.tls/,
    );
    expect(secretInClearWarning('0.0.0.0:7401', false, true)).toMatch(/in clear/);
    expect(secretInClearWarning('10.0.0.5:7401', true, true)).toBeUndefined();
    expect(secretInClearWarning('10.0.0.5:7401', false, false)).toBeUndefined();
    expect(secretInClearWarning('127.0.0.1:7401', false, true)).toBeUndefined();
    expect(secretInClearWarning('[::1]:7401', false, true)).toBeUndefined();
  });
});
