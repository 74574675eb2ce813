import { BrokerServer, ConfigError, loadConfig } from '@fermata/broker';

/**
 * Variables of the `fermata` client commands. They are not server
 * configuration keys, so they are left out of what the server's config loader
 * sees (it refuses unknown FERMATA_* variables): a shell that exported
 * FERMATA_ENDPOINTS for the CLI can still run `fermata serve`.
 */
export const CLIENT_ENV_VARS = [
  'FERMATA_ENDPOINTS',
  'FERMATA_TOKEN',
  'FERMATA_DEADLINE',
  'FERMATA_TLS_CA',
  'FERMATA_TLS_CERT',
  'FERMATA_TLS_KEY',
  'FERMATA_TLS_SERVER_NAME',
] as const;

function serverEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of CLIENT_ENV_VARS) delete out[name];
  return out;
}

/** `fermata serve`: runs one node until SIGTERM or SIGINT, then stops gracefully and exits 0. */
export async function serve(options: { config?: string }): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig({
      ...(options.config
        ? { file: options.config }
        : process.env['FERMATA_CONFIG']
          ? { file: process.env['FERMATA_CONFIG'] }
          : {}),
      env: serverEnv(process.env),
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`fermata serve: invalid configuration:\n  ${err.problems.join('\n  ')}\n`);
      process.exit(2);
    }
    throw err;
  }
  let server: BrokerServer;
  try {
    server = await BrokerServer.start(config);
  } catch (err) {
    // What start-up opened (ports, the store) would keep the process alive: exit.
    process.stderr.write(
      `fermata serve: could not start: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.ctx.log.info({ signal }, 'signal received');
    server.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        server.ctx.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
