/**
 * Mutual TLS between peers. Every node presents a certificate signed by the
 * cluster's CA, on both ends of every peer connection, and checks that the
 * certificate on the other end is a peer certificate (a `fermata-peer:` URI
 * SAN, unless `requirePeerUri` is off) and names the node it claims to be:
 * one of its SANs is the node id, `fermata-peer:<id>`, or the host of the
 * node's peer address (a DNS name, wildcards allowed in the leftmost label,
 * or an IP address).
 *
 * Certificates come from a `TlsSource`; when it changes (a rotated Secret),
 * new connections use the new material without a restart, and established
 * ones keep going.
 */

import type { SecureServerOptions } from 'node:http2';
import type { ConnectionOptions, PeerCertificate } from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import type { NodeId } from '../types.js';
import { PeerConfigError } from './errors.js';

/** PEM certificate chain and key, and the CA bundle that verifies the other end. */
export interface TlsMaterial {
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly ca?: Buffer;
}

/** Where TLS material comes from; `onChange` fires with the new material after a reload. */
export interface TlsSource {
  current(): TlsMaterial;
  /** Returns a function that removes the listener. */
  onChange(listener: (material: TlsMaterial) => void): () => void;
}

/** Material that never changes (tests, or callers that reload by themselves). */
export class StaticTlsSource implements TlsSource {
  private readonly listeners = new Set<(m: TlsMaterial) => void>();
  constructor(private material: TlsMaterial) {}
  current(): TlsMaterial {
    return this.material;
  }
  onChange(listener: (m: TlsMaterial) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  /** Replaces the material and tells the listeners. */
  set(material: TlsMaterial): void {
    this.material = material;
    for (const l of this.listeners) l(material);
  }
}

/**
 * grpc-js server credentials whose certificate, key and CA follow a
 * `TlsSource`: each change becomes the secure context of new connections.
 */
export class ReloadingServerCredentials extends grpc.ServerCredentials {
  constructor(source: TlsSource, requireClientCert: boolean) {
    const m = source.current();
    if (requireClientCert && !m.ca)
      throw new PeerConfigError('client certificates are required but no CA is configured');
    super({ requestCert: requireClientCert, rejectUnauthorized: requireClientCert }, contextOptions(m));
    source.onChange((next) => this.updateSecureContextOptions(contextOptions(next)));
  }

  override _equals(other: grpc.ServerCredentials): boolean {
    return other === this;
  }
}

function contextOptions(m: TlsMaterial): { cert: Buffer; key: Buffer; ca?: Buffer } {
  return m.ca ? { cert: m.cert, key: m.key, ca: m.ca } : { cert: m.cert, key: m.key };
}

/** Adapts a `TlsSource` to grpc-js's certificate provider (used for channels, which reconnect with the latest). */
class SourceCertificateProvider implements grpc.experimental.CertificateProvider {
  private readonly ca = new Set<grpc.experimental.CaCertificateUpdateListener>();
  private readonly identity = new Set<grpc.experimental.IdentityCertificateUpdateListener>();

  constructor(private readonly source: TlsSource) {
    source.onChange((m) => {
      for (const l of this.ca) l(m.ca ? { caCertificate: m.ca } : null);
      for (const l of this.identity) l({ certificate: m.cert, privateKey: m.key });
    });
  }
  addCaCertificateListener(l: grpc.experimental.CaCertificateUpdateListener): void {
    this.ca.add(l);
    const m = this.source.current();
    l(m.ca ? { caCertificate: m.ca } : null);
  }
  removeCaCertificateListener(l: grpc.experimental.CaCertificateUpdateListener): void {
    this.ca.delete(l);
  }
  addIdentityCertificateListener(l: grpc.experimental.IdentityCertificateUpdateListener): void {
    this.identity.add(l);
    const m = this.source.current();
    l({ certificate: m.cert, privateKey: m.key });
  }
  removeIdentityCertificateListener(l: grpc.experimental.IdentityCertificateUpdateListener): void {
    this.identity.delete(l);
  }
}

/** Who a peer claims to be: its node id and, when known, its peer address. */
export interface PeerClaim {
  readonly id: NodeId;
  readonly address?: string;
}

/**
 * The URI SAN prefix that makes a certificate a peer certificate
 * (`fermata-peer:<node id>`, or any suffix for a certificate shared by all
 * members). Client certificates never carry it, so under one CA a client
 * certificate cannot speak on the peer port.
 */
export const PEER_URI_PREFIX = 'fermata-peer:';

/** The SANs of a certificate as Node reports them (`DNS:a, IP Address:10.0.0.1, URI:x:y`). */
export function subjectAltNames(cert: Pick<PeerCertificate, 'subjectaltname'>): {
  dns: string[];
  ip: string[];
  uri: string[];
} {
  const dns: string[] = [];
  const ip: string[] = [];
  const uri: string[] = [];
  for (const part of (cert.subjectaltname ?? '').split(/,\s*/)) {
    if (part.startsWith('DNS:')) dns.push(part.slice(4).toLowerCase());
    else if (part.startsWith('IP Address:')) ip.push(part.slice(11).toLowerCase());
    else if (part.startsWith('URI:')) uri.push(part.slice(4));
  }
  return { dns, ip, uri };
}

function hostOf(address: string): string {
  const bracketed = /^\[([^\]]+)\]:\d+$/.exec(address);
  if (bracketed) return (bracketed[1] as string).toLowerCase();
  const i = address.lastIndexOf(':');
  return (i < 0 ? address : address.slice(0, i)).toLowerCase();
}

function dnsMatches(pattern: string, name: string): boolean {
  if (pattern === name) return true;
  if (!pattern.startsWith('*.')) return false;
  const dot = name.indexOf('.');
  return dot > 0 && name.slice(dot + 1) === pattern.slice(2);
}

/** Why `cert` is not a peer certificate (no `fermata-peer:` URI SAN), or undefined when it is one. */
export function peerCertificateError(
  cert: Pick<PeerCertificate, 'subjectaltname'> | undefined,
  claim: PeerClaim,
): string | undefined {
  if (!cert) return `peer "${claim.id}" presented no certificate`;
  if (subjectAltNames(cert).uri.some((u) => u.startsWith(PEER_URI_PREFIX))) return undefined;
  return `certificate presented as peer "${claim.id}" carries no ${PEER_URI_PREFIX} URI SAN: it is not a peer certificate`;
}

/** Why `cert` does not name the peer `claim`, or undefined when it does. */
export function peerIdentityError(
  cert: Pick<PeerCertificate, 'subjectaltname' | 'subject'> | undefined,
  claim: PeerClaim,
): string | undefined {
  if (!cert) return `peer "${claim.id}" presented no certificate`;
  const { dns, ip, uri } = subjectAltNames(cert);
  const id = claim.id.toLowerCase();
  if (dns.includes(id) || uri.includes(`${PEER_URI_PREFIX}${claim.id}`)) return undefined;
  if (claim.address !== undefined) {
    const host = hostOf(claim.address);
    if (ip.includes(host) || dns.some((d) => dnsMatches(d, host))) return undefined;
  }
  const names =
    [...dns.map((d) => `DNS:${d}`), ...ip.map((i) => `IP:${i}`), ...uri.map((u) => `URI:${u}`)].join(', ') ||
    'no SANs';
  return `certificate (${names}) does not name peer "${claim.id}"${claim.address ? ` at ${claim.address}` : ''}`;
}

/** What grpc-js tells a handler about the connection (its `AuthContext`, not exported by name). */
export interface PeerAuthContext {
  readonly transportSecurityType?: string;
  readonly sslPeerCertificate?: PeerCertificate;
}

export interface PeerTlsOptions {
  /** Check that each peer's certificate names the node it claims to be (default true). */
  readonly verifyIdentity?: boolean;
  /**
   * Accept only peer certificates: ones with a `fermata-peer:` URI SAN (default
   * true). Turn off only when the peer CA issues nothing but peer certificates.
   */
  readonly requirePeerUri?: boolean;
}

/**
 * The peer port's TLS: server credentials that require a client certificate
 * from the cluster CA, channel credentials per peer that verify the server's
 * identity, and the check of a caller's certificate against the node id it
 * writes in its batches.
 */
export class PeerTls {
  private server: ReloadingServerCredentials | undefined;
  private readonly provider: SourceCertificateProvider;
  readonly verifyIdentity: boolean;
  readonly requirePeerUri: boolean;

  constructor(
    readonly source: TlsSource,
    options: PeerTlsOptions = {},
  ) {
    if (!source.current().ca) throw new PeerConfigError('peer TLS needs a CA to verify the other nodes');
    this.provider = new SourceCertificateProvider(source);
    this.verifyIdentity = options.verifyIdentity ?? true;
    this.requirePeerUri = options.requirePeerUri ?? true;
  }

  /**
   * Whether a caller that passes `checkCaller` is proven to be the node it
   * claims: its certificate is a peer certificate (`fermata-peer:` URI SAN)
   * from the cluster's CA and names that node.
   */
  get provesPeerIdentity(): boolean {
    return this.verifyIdentity && this.requirePeerUri;
  }

  serverCredentials(): grpc.ServerCredentials {
    this.server ??= new ReloadingServerCredentials(this.source, true);
    return this.server;
  }

  /**
   * TLS options of the peer port's own server (node:http2): client
   * certificates required and verified against the CA, and a listener that
   * gets the options of each change of the material (for new connections).
   */
  serverOptions(): SecureServerOptions & {
    onChange(listener: (options: SecureServerOptions) => void): void;
  } {
    return {
      ...contextOptions(this.source.current()),
      requestCert: true,
      rejectUnauthorized: true,
      onChange: (listener) => {
        this.source.onChange((m) => listener(contextOptions(m)));
      },
    };
  }

  /** Credentials for the channel to one peer: our certificate, the CA, and that peer's identity. */
  channelCredentials(claim: PeerClaim): grpc.ChannelCredentials {
    return grpc.experimental.createCertificateProviderChannelCredentials(this.provider, this.provider, {
      checkServerIdentity: (_host, cert) => {
        const problem = this.certificateError(cert, claim);
        return problem === undefined ? undefined : new Error(problem);
      },
    });
  }

  /**
   * TLS options for a connection of our own to one peer (the message stream,
   * over node:http2): our certificate, the CA, and that peer's identity, from
   * the material of the moment (a rotated one applies to new connections).
   */
  connectOptions(claim: PeerClaim): ConnectionOptions {
    const m = this.source.current();
    return {
      cert: m.cert,
      key: m.key,
      ...(m.ca ? { ca: m.ca } : {}),
      checkServerIdentity: (_host, cert) => {
        const problem = this.certificateError(cert, claim);
        return problem === undefined ? undefined : new Error(problem);
      },
    };
  }

  /** Why the caller of `call` may not speak as `claim` (undefined when it may). */
  checkCaller(call: { getAuthContext(): PeerAuthContext | null }, claim: PeerClaim): string | undefined {
    const auth = call.getAuthContext();
    if (auth?.transportSecurityType !== 'ssl') return `peer "${claim.id}" did not connect over TLS`;
    return this.certificateError(auth.sslPeerCertificate, claim);
  }

  private certificateError(cert: PeerCertificate | undefined, claim: PeerClaim): string | undefined {
    if (this.requirePeerUri) {
      const notPeer = peerCertificateError(cert, claim);
      if (notPeer !== undefined) return notPeer;
    }
    return this.verifyIdentity ? peerIdentityError(cert, claim) : undefined;
  }
}
