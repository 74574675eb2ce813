import { readFileSync } from 'node:fs';
import { FermataClient, type Logger, type TlsOptions } from '@fermata/sdk';
import type { Command } from 'commander';
import { UsageError } from './exit-codes.js';
import { parseDuration } from './parse.js';

/** The endpoints used when neither `--endpoints` nor `FERMATA_ENDPOINTS` is given. */
export const DEFAULT_ENDPOINTS = '127.0.0.1:7400';
/** Default budget of one call, retries included. */
export const DEFAULT_DEADLINE = '10s';

/** Options every command (but `serve`) takes; see `addGlobalOptions` in main.ts. */
export interface GlobalOptions {
  endpoints: string;
  token?: string;
  tls?: boolean;
  tlsCa?: string;
  tlsCert?: string;
  tlsKey?: string;
  tlsServerName?: string;
  json?: boolean;
  deadline: string;
  verbose?: boolean;
}

export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals<GlobalOptions>();
}

/** The SDK's log message when a subscription ends on an error retrying cannot fix. */
const SUBSCRIPTION_STOPPED = 'subscription stopped';

/** SDK log lines go to stderr, one line each: warnings always, debug with --verbose. */
function stderrLogger(verbose: boolean): Logger {
  const line = (level: string, message: string, context?: Record<string, unknown>) => {
    const ctx =
      context && Object.keys(context).length > 0
        ? ` ${JSON.stringify(context, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`
        : '';
    process.stderr.write(`fermata: ${level}: ${message}${ctx}\n`);
  };
  return {
    debug: verbose ? (m, c) => line('debug', m, c) : () => {},
    warn: (m, c) => line('warning', m, c),
    // A subscription that stops for good is reported by the command itself, as its one error line.
    error: (m, c) => (m === SUBSCRIPTION_STOPPED && !verbose ? undefined : line('error', m, c)),
  };
}

/** The client's TLS setting from the --tls* options: undefined (plaintext), true (system CAs) or files. */
export function tlsOption(g: GlobalOptions): boolean | TlsOptions | undefined {
  const read = (file: string, flag: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new UsageError(`${flag}: cannot read ${file}: ${(err as Error).message}`);
    }
  };
  if (!g.tlsCa && !g.tlsCert && !g.tlsKey && !g.tlsServerName) return g.tls ? true : undefined;
  return {
    ...(g.tlsCa ? { ca: read(g.tlsCa, '--tls-ca') } : {}),
    ...(g.tlsCert ? { cert: read(g.tlsCert, '--tls-cert') } : {}),
    ...(g.tlsKey ? { key: read(g.tlsKey, '--tls-key') } : {}),
    ...(g.tlsServerName ? { serverName: g.tlsServerName } : {}),
  };
}

/** A client for the command's global options. Close it when done. */
export function connect(cmd: Command): FermataClient {
  const g = globals(cmd);
  return new FermataClient({
    endpoints: g.endpoints,
    ...(g.token ? { token: g.token } : {}),
    ...(tlsOption(g) !== undefined ? { tls: tlsOption(g) } : {}),
    deadlineMs: Math.max(1, parseDuration(g.deadline, '--deadline')),
    logger: stderrLogger(g.verbose === true),
  });
}

/** Runs `fn` with a client and closes the client afterwards, whatever happens. */
export async function withClient<T>(cmd: Command, fn: (client: FermataClient) => Promise<T>): Promise<T> {
  const client = connect(cmd);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}
