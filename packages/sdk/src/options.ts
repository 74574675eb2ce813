import type { ChannelOptions } from '@grpc/grpc-js';
import type { BackoffPolicy } from './backoff.js';

/** TLS settings for the client's channels. PEM contents, not file paths. */
export interface TlsOptions {
  /** CA certificate(s) that sign the servers' certificates. Omit to use the system roots. */
  ca?: string | Uint8Array;
  /** Client certificate, for mutual TLS (with `key`). */
  cert?: string | Uint8Array;
  /** Client private key, for mutual TLS (with `cert`). */
  key?: string | Uint8Array;
  /** Expected server name when it differs from the host in the address (sets `grpc.ssl_target_name_override`). */
  serverName?: string;
}

/** Where the SDK reports what it handled by itself (retries, ignored expired leases). */
export interface Logger {
  /** Retries, redirects, reconnects: routine. */
  debug(message: string, context?: Record<string, unknown>): void;
  /** Something the SDK handled that you may want to know about (a failed handler, an expired lease). */
  warn(message: string, context?: Record<string, unknown>): void;
  /** Something that needs attention (a subscription stopped, a settle failed). */
  error(message: string, context?: Record<string, unknown>): void;
}

/** Options of {@link FermataClient}. */
export interface ClientOptions {
  /** Client addresses (`host:port`) of some or all nodes. One is enough; more survive that one being down. */
  endpoints: string[] | string;
  /** `true` for TLS with the system roots, or CA/client certificates. Omit for plaintext. */
  tls?: boolean | TlsOptions;
  /** Sent as `authorization: Bearer <token>` on every call. */
  token?: string;
  /**
   * Budget of one client call in ms, retries included (default 30 000). A call
   * that has not succeeded by then fails with the last error it saw.
   */
  deadlineMs?: number;
  /**
   * How long a call (or a subscription, or a producer) goes on when no
   * endpoint answers at all, in ms (default 3 000): then it fails with a
   * ConnectError naming each endpoint and why (refused, timed out, host not
   * found, the HTTP or peer port of a node instead of its client port). A
   * node that answers without a leader (an election) is waited for until
   * `deadlineMs` instead.
   */
  connectTimeoutMs?: number;
  /** Backoff between retries of a call (default 50 ms doubling to 2 s, jitter 0.5). */
  retry?: Partial<BackoffPolicy>;
  /** How long leader discovery waits for one node's `GetClusterInfo`, in ms (default 2 000). */
  discoveryTimeoutMs?: number;
  /**
   * Longest single attempt of a unary call in ms (default 5 000): an attempt
   * that gets no answer by then (a frozen or partitioned leader) is abandoned,
   * the leader is looked up again and the call retried within `deadlineMs`.
   * Publishes stay idempotent across such retries (see `idempotentPublish`).
   */
  attemptTimeoutMs?: number;
  /**
   * Attach a unique idempotency key (`sdk:<random>`) to every publish request
   * (a `publishBatch` call, a producer batch), so a request retried after a
   * failover is not stored twice: within the cluster's
   * `limits.publishDedupWindowMs` (10 minutes) a retry stores nothing and gets
   * the first attempt's results, `deduplicated: true` (default true).
   */
  idempotentPublish?: boolean;
  /** Extra grpc-js channel options (keepalive, message sizes...). */
  channelOptions?: ChannelOptions;
  /** Default: warnings and errors to the console, debug dropped. */
  logger?: Logger;
}

/** Does nothing: one function for every ignored callback (a new closure on a per-message path is an allocation per message). */
export const ignore = (): void => {};

/** The console logger used when none is given: warnings and errors only. */
export const consoleLogger: Logger = {
  debug: ignore,
  warn: (message, context) => console.warn(`[fermata] ${message}`, context ?? ''),
  error: (message, context) => console.error(`[fermata] ${message}`, context ?? ''),
};

/** A logger that drops everything. */
export const silentLogger: Logger = { debug: ignore, warn: ignore, error: ignore };
