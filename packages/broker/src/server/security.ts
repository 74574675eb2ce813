/**
 * Everything the server needs for transport security and authentication, built
 * from the configuration in one place: the client port's credentials and
 * gRPC options (auth interceptor, stream and idle limits), the peer port's
 * mutual TLS, the reloading file watchers, and the start-up warnings.
 */
import { readFileSync } from 'node:fs';
import { assertPeerSecret, PeerTls } from '@fermata/raft';
import * as grpc from '@grpc/grpc-js';
import { KEY_BYTES, RUN_TAG_BYTES, TAG_BYTES, tagQueue } from '../keys.js';
import { isAuthFailure } from './auth.js';
import { createAuthInterceptor } from './auth-interceptor.js';
import type { FermataConfig } from './config-schema.js';
import type { HttpAuthFailure } from './http.js';
import {
  clientServerCredentials,
  isLoopbackAddress,
  plaintextWarning,
  TlsConfigError,
  TlsFiles,
} from './tls.js';
import { TokenFile } from './token-file.js';

export interface SecurityLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** Most queue-hash -> topic answers kept for authorizing acks by tag (a queue's topic never changes). */
export const MAX_TAG_TOPIC_CACHE = 10_000;

export interface Security {
  /** Credentials of the client port (TLS or plaintext). */
  readonly clientCredentials: grpc.ServerCredentials;
  /** Options for the client port's `grpc.Server`: the auth interceptor and connection limits. */
  readonly clientServerOptions: grpc.ServerOptions;
  /** Peer mutual TLS, or undefined for plaintext between peers. */
  readonly peerTls: PeerTls | undefined;
  /** The cluster secret (`peer.secretFile`), or undefined when none is configured. */
  readonly peerSecret: string | undefined;
  readonly tokens: TokenFile;
  /** The topic of a delivery tag's queue (the `consume` check of ack, nack, extend), cached. */
  readonly topicOfTag: (tag: Uint8Array) => Promise<string | undefined>;
  readonly clientTls: TlsFiles | undefined;
  readonly peerTlsFiles: TlsFiles | undefined;
  close(): void;
}

/** Configuration problems of the security keys (all at once, like ConfigError). */
export function securityConfigProblems(config: FermataConfig): string[] {
  const problems: string[] = [];
  const c = config.client.tls;
  if ((c.certFile === '') !== (c.keyFile === ''))
    problems.push('client.tls.certFile and client.tls.keyFile must be set together');
  if (c.requireClientCert && c.caFile === '')
    problems.push('client.tls.requireClientCert needs client.tls.caFile (the CA of the client certificates)');
  if (c.requireClientCert && c.certFile === '')
    problems.push(
      'client.tls.requireClientCert needs client.tls.certFile and keyFile (TLS on the client port)',
    );
  const p = config.peer.tls;
  const set = [p.certFile, p.keyFile, p.caFile].filter((f) => f !== '').length;
  if (set !== 0 && set !== 3)
    problems.push(
      'peer.tls.certFile, peer.tls.keyFile and peer.tls.caFile must be set together (mutual TLS)',
    );
  if (config.http.auth === 'on' && config.auth.tokensFile === '')
    problems.push('http.auth is on but auth.tokensFile is not set: no token could read the status page');
  return problems;
}

/**
 * Why the JSON API under /v1 is closed, or undefined when it is served: with
 * mutual TLS on the client port and no token file, the client port lets in
 * certificate holders only, and the plaintext HTTP port could check nothing
 * (`http.apiWithoutAuth` opens it anyway).
 */
export function httpApiClosedReason(config: FermataConfig): string | undefined {
  if (!config.client.tls.requireClientCert || config.auth.tokensFile !== '' || config.http.apiWithoutAuth)
    return undefined;
  return 'the HTTP API is closed: the client port authenticates by client certificate (client.tls.requireClientCert) and no auth.tokensFile is set, so the HTTP port, which cannot check certificates, would let anyone in; set auth.tokensFile (the API then needs a token), or http.apiWithoutAuth: true to serve it without authentication';
}

/**
 * The HTTP port's check of a request for the status page or /metrics
 * (http.auth), or undefined when those are open: a token of the token file
 * that may monitor (`monitor: true`, `admin: ["*"]` or `read: ["*"]`).
 */
export function httpAuthorizer(
  config: FermataConfig,
  tokens: TokenFile,
): ((header: string | undefined) => HttpAuthFailure | undefined) | undefined {
  const on = config.http.auth === 'on' || (config.http.auth === 'auto' && tokens.tokens().enabled);
  if (!on) return undefined;
  return (header) => {
    const who = tokens.tokens().authenticateHeader(header);
    if (isAuthFailure(who)) return { status: 401, error: who.details };
    if (!who.canMonitor)
      return {
        status: 403,
        error: `token "${who.name}" may not read this page: it needs "monitor: true", or admin or read on "*"`,
      };
    return undefined;
  };
}

export interface SecurityOptions {
  readonly config: FermataConfig;
  readonly log: SecurityLog;
  /** The topic of a queue, from the store (for `consume` checks on delivery tags). */
  readonly topicOfQueue: (queueHash: bigint) => Promise<string | undefined>;
  /** The connection of `peer` (`call.getPeer()`) made an authenticated call (any call with auth off). */
  readonly onAuthenticated?: (peer: string) => void;
}

/** Services whose calls do not make a connection authenticated when auth is off either: health probes. */
const PROBE_SERVICE = '/grpc.health.v1.Health/';

/** With authentication off: marks the connection of every call (health probes aside) as authenticated. */
function markCallers(onAuthenticated: (peer: string) => void): grpc.ServerInterceptor {
  return (method, call) => {
    if (!method.path.startsWith(PROBE_SERVICE)) onAuthenticated(call.getPeer());
    return new grpc.ServerInterceptingCall(call);
  };
}

/** Loads certificates and tokens (throwing on unusable files) and logs what is in force. */
export function setupSecurity(options: SecurityOptions): Security {
  const { config, log } = options;
  const problems = securityConfigProblems(config);
  if (problems.length > 0) throw new TlsConfigError(problems.join('; '));
  const reloadMs = config.credentialsReloadIntervalMs;
  const c = config.client.tls;
  const p = config.peer.tls;
  const clientTls =
    c.certFile === ''
      ? undefined
      : new TlsFiles({
          certFile: c.certFile,
          keyFile: c.keyFile,
          caFile: c.caFile,
          reloadIntervalMs: reloadMs,
          label: 'client',
          log,
        });
  const peerTlsFiles =
    p.certFile === ''
      ? undefined
      : new TlsFiles({
          certFile: p.certFile,
          keyFile: p.keyFile,
          caFile: p.caFile,
          reloadIntervalMs: reloadMs,
          label: 'peer',
          log,
        });
  const peerSecret = readPeerSecret(config.peer.secretFile);
  const tokens = new TokenFile(config.auth.tokensFile, reloadMs, log);

  for (const w of [
    plaintextWarning('client', config.client.listenAddress, clientTls !== undefined),
    plaintextWarning('peer', config.peer.listenAddress, peerTlsFiles !== undefined),
    unauthenticatedPeerWarning(
      config.peer.listenAddress,
      peerTlsFiles !== undefined,
      peerSecret !== undefined,
    ),
    secretInClearWarning(config.peer.listenAddress, peerTlsFiles !== undefined, peerSecret !== undefined),
  ]) {
    if (w) log.warn({}, w);
  }
  const apiClosed = httpApiClosedReason(config);
  if (apiClosed !== undefined) log.warn({}, apiClosed);
  else if (config.client.tls.requireClientCert && !tokens.tokens().enabled)
    log.warn(
      {},
      'the HTTP API is open (http.apiWithoutAuth): anyone who reaches the HTTP port may call everything, while the client port asks for a client certificate',
    );
  if (tokens.tokens().enabled) {
    log.info(
      { tokensFile: config.auth.tokensFile, tokens: tokens.tokens().tokens.map((t) => t.name) },
      'authentication on',
    );
  } else {
    log.warn({}, 'authentication OFF: no auth.tokensFile configured, every client may call everything');
  }

  const cache = new Map<bigint, string>();
  const topicOfTag = async (tag: Uint8Array): Promise<string | undefined> => {
    // Every kind of tag starts with its queue's hash.
    if (tag.length !== KEY_BYTES && tag.length !== TAG_BYTES && tag.length !== RUN_TAG_BYTES)
      return undefined;
    const queueHash = tagQueue(tag);
    const hit = cache.get(queueHash);
    if (hit !== undefined) return hit;
    const topic = await options.topicOfQueue(queueHash);
    if (topic !== undefined) {
      if (cache.size >= MAX_TAG_TOPIC_CACHE) cache.clear();
      cache.set(queueHash, topic);
    }
    return topic;
  };

  const onAuthenticated = options.onAuthenticated;
  // Without a token file auth stays off for the process's life: no auth interceptor on the call path.
  let interceptor: grpc.ServerInterceptor | undefined;
  if (tokens.tokens().enabled) {
    const gate = createAuthInterceptor({
      tokens: () => tokens.tokens(),
      topicOfTag,
      log,
      ...(onAuthenticated ? { onAuthenticated } : {}),
    });
    tokens.onChange((table) => {
      const ended = gate.recheck(table);
      if (ended > 0) log.info({ ended }, 'calls of revoked or narrowed tokens ended');
    });
    interceptor = gate.interceptor;
  } else if (onAuthenticated) {
    interceptor = markCallers(onAuthenticated);
  }

  return {
    clientCredentials: clientServerCredentials(clientTls, c.requireClientCert),
    clientServerOptions: {
      ...(interceptor ? { interceptors: [interceptor] } : {}),
      'grpc.max_concurrent_streams': config.limits.maxStreamsPerConnection,
      'grpc.max_connection_idle_ms': config.limits.maxConnectionIdleMs,
    },
    peerTls: peerTlsFiles
      ? new PeerTls(peerTlsFiles, { verifyIdentity: p.verifyIdentity, requirePeerUri: p.requirePeerUri })
      : undefined,
    peerSecret,
    tokens,
    topicOfTag,
    clientTls,
    peerTlsFiles,
    close: () => {
      tokens.close();
      clientTls?.close();
      peerTlsFiles?.close();
    },
  };
}

/** The trimmed content of `peer.secretFile`, or undefined when it is not set. */
export function readPeerSecret(file: string): string | undefined {
  if (file === '') return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TlsConfigError(`peer.secretFile ${file}: ${String(error)}`);
  }
  const secret = text.trim();
  try {
    assertPeerSecret(secret, `peer.secretFile ${file}`);
  } catch (error) {
    throw new TlsConfigError((error as Error).message);
  }
  return secret;
}

/** The start-up warning for a peer port that anyone who reaches it may write to (none on loopback). */
export function unauthenticatedPeerWarning(
  listenAddress: string,
  tls: boolean,
  secret: boolean,
): string | undefined {
  if (tls || secret || isLoopbackAddress(listenAddress)) return undefined;
  return `peer port ${listenAddress} authenticates no caller: anyone who reaches it can write to the Raft log as a member; set peer.secretFile (a cluster secret) or peer.tls outside local development`;
}

/**
 * The start-up warning for a cluster secret sent without peer TLS off
 * loopback: every peer call carries it in clear, so whoever reads peer
 * traffic learns it and can write to the Raft log as a member.
 */
export function secretInClearWarning(
  listenAddress: string,
  tls: boolean,
  secret: boolean,
): string | undefined {
  if (!secret || tls || isLoopbackAddress(listenAddress)) return undefined;
  return `peer port ${listenAddress} sends the cluster secret (peer.secretFile) in clear: without peer TLS anyone who can read traffic between the nodes learns it and can write to the Raft log as a member; set peer.tls where that network is not trusted`;
}
