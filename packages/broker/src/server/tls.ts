/**
 * TLS material from files, re-read when the files change (Kubernetes swaps a
 * mounted Secret atomically), and the credentials of the client port.
 *
 * A change is applied only once the new certificate, key and CA load together
 * (the key matches the certificate); a half-written rotation is logged and the
 * previous material stays in use until the next check.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { ReloadingServerCredentials, type TlsMaterial, type TlsSource } from '@fermata/raft';
import * as grpc from '@grpc/grpc-js';
import { parseAddress } from './config.js';

/** The subset of the server logger this needs. */
export interface TlsLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface TlsFilesOptions {
  readonly certFile: string;
  readonly keyFile: string;
  /** CA bundle that verifies the other end; '' for none. */
  readonly caFile: string;
  /** How often the files are checked for changes; 0 = never. */
  readonly reloadIntervalMs: number;
  /** Names the material in log lines: `client` or `peer`. */
  readonly label: string;
  readonly log?: TlsLog;
}

/** A TLS file setting that cannot be used; names the files and the reason. */
export class TlsConfigError extends Error {
  override readonly name = 'TlsConfigError';
}

/** What a log line says about a certificate. */
export interface CertificateSummary {
  readonly subject: string;
  readonly subjectAltName: string;
  readonly validFrom: string;
  readonly validTo: string;
  readonly expired: boolean;
}

export function summarizeCertificate(pem: Buffer, nowMs = Date.now()): CertificateSummary {
  const x = new X509Certificate(pem);
  return {
    subject: x.subject,
    subjectAltName: x.subjectAltName ?? '',
    validFrom: x.validFrom,
    validTo: x.validTo,
    expired: Date.parse(x.validTo) < nowMs || Date.parse(x.validFrom) > nowMs,
  };
}

/** Loads and cross-checks the three files; throws TlsConfigError naming what is wrong. */
export function loadTlsMaterial(certFile: string, keyFile: string, caFile: string): TlsMaterial {
  const read = (file: string, what: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new TlsConfigError(`cannot read the ${what} file ${file}: ${(err as Error).message}`);
    }
  };
  const cert = read(certFile, 'certificate');
  const key = read(keyFile, 'private key');
  const ca = caFile === '' ? undefined : read(caFile, 'CA');
  try {
    createSecureContext({ cert, key, ...(ca ? { ca } : {}) });
    new X509Certificate(cert);
  } catch (err) {
    throw new TlsConfigError(
      `TLS files do not load together (certificate ${certFile}, key ${keyFile}${ca ? `, CA ${caFile}` : ''}): ${(err as Error).message}`,
    );
  }
  return ca ? { cert, key, ca } : { cert, key };
}

function sameMaterial(a: TlsMaterial, b: TlsMaterial): boolean {
  const eq = (x: Buffer | undefined, y: Buffer | undefined) => (x && y ? x.equals(y) : x === y);
  return eq(a.cert, b.cert) && eq(a.key, b.key) && eq(a.ca, b.ca);
}

/**
 * A `TlsSource` over certificate, key and CA files, polled every
 * `reloadIntervalMs`. Construction loads them at once and throws when they
 * cannot be used, so a bad setting stops the server at start.
 */
export class TlsFiles implements TlsSource {
  private material: TlsMaterial;
  private readonly listeners = new Set<(m: TlsMaterial) => void>();
  private readonly timer: NodeJS.Timeout | undefined;
  /** The last rejected change, so a broken rotation is logged once, not on every check. */
  private lastProblem = '';
  reloads = 0;

  constructor(private readonly options: TlsFilesOptions) {
    if (options.certFile === '' || options.keyFile === '')
      throw new TlsConfigError(`${options.label} TLS needs both a certificate and a key file`);
    this.material = loadTlsMaterial(options.certFile, options.keyFile, options.caFile);
    const summary = summarizeCertificate(this.material.cert);
    if (summary.expired)
      options.log?.warn(
        { tls: options.label, ...summary },
        `${options.label} TLS certificate is not valid now`,
      );
    else options.log?.info({ tls: options.label, ...summary }, `${options.label} TLS certificate loaded`);
    if (options.reloadIntervalMs > 0) {
      this.timer = setInterval(() => this.check(), options.reloadIntervalMs);
      this.timer.unref();
    }
  }

  current(): TlsMaterial {
    return this.material;
  }

  onChange(listener: (m: TlsMaterial) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Re-reads the files; applies and announces them when they changed and load together. */
  check(): boolean {
    const { certFile, keyFile, caFile, label, log } = this.options;
    let next: TlsMaterial;
    try {
      next = loadTlsMaterial(certFile, keyFile, caFile);
    } catch (err) {
      const problem = (err as Error).message;
      if (problem !== this.lastProblem) {
        this.lastProblem = problem;
        log?.warn(
          { tls: label, err: problem },
          `${label} TLS files changed but cannot be used; keeping the previous ones`,
        );
      }
      return false;
    }
    this.lastProblem = '';
    if (sameMaterial(next, this.material)) return false;
    this.material = next;
    this.reloads++;
    log?.info({ tls: label, ...summarizeCertificate(next.cert) }, `${label} TLS certificate reloaded`);
    for (const l of this.listeners) l(next);
    return true;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.listeners.clear();
  }
}

/** Server credentials of the client port: TLS when configured, else plaintext. */
export function clientServerCredentials(
  files: TlsFiles | undefined,
  requireClientCert: boolean,
): grpc.ServerCredentials {
  if (!files) return grpc.ServerCredentials.createInsecure();
  return new ReloadingServerCredentials(files, requireClientCert);
}

/** Whether a listen address is reachable only from this machine. */
export function isLoopbackAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  const h = parsed.host.toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** The warning to log for a port served in plaintext on a non-loopback address, if any. */
export function plaintextWarning(
  port: 'client' | 'peer',
  listenAddress: string,
  tls: boolean,
): string | undefined {
  if (tls || isLoopbackAddress(listenAddress)) return undefined;
  return `${port} port ${listenAddress} serves PLAINTEXT on a non-loopback address: anyone on the network can read and inject traffic; configure ${port}.tls.certFile/keyFile${port === 'peer' ? '/caFile' : ''} outside local development`;
}
