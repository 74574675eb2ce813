import { resolve } from 'node:path';
import type { Command } from 'commander';
import { globals } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { fields, isoTime, printJson } from '../format.js';
import { count } from '../progress.js';

interface RestoreFlags {
  from: string;
  data?: string;
  clusterId?: string;
  nodeId?: string;
  initialMembers?: string;
  config?: string;
}

/**
 * `fermata restore --from FILE --data DIR`: seeds the (empty) data directory
 * of one node of a new cluster from a backup. The node's own configuration
 * (--config / FERMATA_CONFIG and FERMATA_* variables, as `fermata serve`
 * reads them) names the node, the new cluster's id and its members; the
 * flags override it. Run it for every node of the new cluster with the same
 * file and members, then start them. Documented in docs/operations.md
 * ("Backups").
 */
export function registerRestore(program: Command): void {
  program
    .command('restore')
    .description("seed a new cluster node's empty data directory from a backup file (run it on every node)")
    .requiredOption('--from <file>', 'the backup file (fermata backup --out)')
    .option('--data <dir>', 'the node’s data directory (default: its dataDir setting)')
    .option(
      '--cluster-id <id>',
      'the new cluster’s id, which must differ from the backup’s (default: clusterId)',
    )
    .option('--node-id <id>', 'the node being seeded (default: nodeId)')
    .option(
      '--initial-members <list>',
      'every member of the new cluster, id=peerHost:peerPort/clientHost:clientPort,... (default: initialMembers)',
    )
    .option('-c, --config <file>', 'the node’s YAML configuration file')
    .action(async (opts: RestoreFlags, cmd: Command) => {
      const broker = await import('@fermata/broker');
      const { CLIENT_ENV_VARS } = await import('./serve.js');
      const env = { ...process.env };
      for (const name of CLIENT_ENV_VARS) delete env[name];
      let config: ReturnType<typeof broker.loadConfig>;
      try {
        const file = opts.config ?? env['FERMATA_CONFIG'];
        config = broker.loadConfig({
          ...(file ? { file } : {}),
          env,
          overrides: {
            ...(opts.data !== undefined ? { dataDir: opts.data } : {}),
            ...(opts.clusterId !== undefined ? { clusterId: opts.clusterId } : {}),
            ...(opts.nodeId !== undefined ? { nodeId: opts.nodeId } : {}),
            ...(opts.initialMembers !== undefined ? { initialMembers: opts.initialMembers } : {}),
          },
        });
      } catch (err) {
        if (err instanceof broker.ConfigError)
          throw new CliError(`restore: ${err.problems.join('; ')}`, ExitCode.USAGE);
        throw err;
      }
      const self = {
        peerAddress: broker.advertiseAddress(config.peer.advertiseAddress, config.peer.listenAddress),
        clientAddress: broker.advertiseAddress(config.client.advertiseAddress, config.client.listenAddress),
      };
      const members = broker.bootstrapMembers(config, self);
      const dataDir = resolve(config.dataDir);
      let r: Awaited<ReturnType<typeof broker.restoreDataDir>>;
      try {
        r = await broker.restoreDataDir({
          from: resolve(opts.from),
          dataDir,
          clusterId: config.clusterId,
          nodeId: config.nodeId,
          members,
        });
      } catch (err) {
        if (err instanceof broker.BackupFileError)
          throw new CliError(`restore: ${err.message}`, ExitCode.USAGE);
        if (err instanceof broker.RestoreError)
          throw new CliError(`restore: ${err.message}`, ExitCode.CONFLICT);
        throw err;
      }
      const result = {
        dataDir,
        node: config.nodeId,
        clusterId: config.clusterId,
        members: members.map((m) => m.id),
        alreadyRestored: r.alreadyRestored,
        sourceClusterId: r.info.clusterId,
        appliedIndex: r.info.appliedIndex,
        takenAtMs: r.info.takenAtMs,
        messages: r.totals.messages,
        sha256: r.totals.sha256,
      };
      if (globals(cmd).json) printJson(result);
      else {
        process.stdout.write(
          fields([
            [
              'data directory',
              `${dataDir}${r.alreadyRestored ? ' (already restored from this backup)' : ''}`,
            ],
            ['node', config.nodeId],
            ['new cluster', `${config.clusterId} (${members.map((m) => m.id).join(', ')})`],
            [
              'backup of',
              `${r.info.clusterId} at index ${r.info.appliedIndex}, ${isoTime(r.info.takenAtMs)}`,
            ],
            ['messages', count(r.totals.messages)],
            ['sha256', r.totals.sha256],
          ]),
        );
      }
    });
}
