import { BrokerServer, ConfigError, loadConfig } from '@fermata/broker';

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
      env: process.env,
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`fermata serve: invalid configuration:\n  ${err.problems.join('\n  ')}\n`);
      process.exit(2);
    }
    throw err;
  }
  const server = await BrokerServer.start(config);
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
