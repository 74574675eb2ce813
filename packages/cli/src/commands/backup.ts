import type { Command } from 'commander';

/**
 * `fermata backup --out FILE`: streams a consistent snapshot of the running
 * cluster from its leader into FILE (written as FILE.partial, checked against
 * the leader's SHA-256, synced, then renamed). Documented in docs/operations.md
 * ("Backups") and docs/cli.md.
 */
export function registerBackup(program: Command): void {
  program
    .command('backup')
    .description('write a consistent, checksummed backup of the running cluster to a file (needs admin on *)')
    .requiredOption('-o, --out <file>', 'the backup file to write (an existing file is replaced)')
    .option('--progress', 'print progress lines on stderr even when it is not a terminal')
    .action(async (opts: { out: string; progress?: boolean }, cmd: Command) => {
      // The backup file's code is the server's: loaded only for this command (as for serve).
      const { backup } = await import('./backup-run.js');
      await backup(opts, cmd);
    });
}
