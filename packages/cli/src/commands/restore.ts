import type { Command } from 'commander';
import { globals } from '../context.js';
import type { RestoreFlags } from './restore-run.js';

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
      // The server's code is loaded only for this command (as for serve).
      const { restore } = await import('./restore-run.js');
      await restore(opts, globals(cmd).json === true);
    });
}
