import { repairResetTerm, TermRepairError } from '@fermata/broker';
import type { Command } from 'commander';
import { globals } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { printJson } from '../format.js';

/** `--term 42`: a positive integer, or a usage error naming the option. */
function parseTerm(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw new CliError(`--term must be a positive integer, got "${value}"`, ExitCode.USAGE);
  }
  return n;
}

/**
 * `fermata repair reset-term --data DIR`: on a stopped node, replaces a Raft
 * term that is out of bounds (beyond what can be incremented, or far past the
 * log's last term) with one above the log's last term, clearing the vote.
 * Documented in docs/operations.md ("Repairing an out-of-bounds term").
 */
export function registerRepair(program: Command): void {
  const repair = program.command('repair').description('offline repairs of a stopped node’s data directory');
  repair
    .command('reset-term')
    .description('replace an out-of-bounds Raft term in the hard state (the node must be stopped)')
    .requiredOption('--data <dir>', 'the node’s data directory (its dataDir setting)')
    .option('--term <n>', 'the new term (default: the log’s last term + 1)')
    .option('--force', 'rewrite the term even when it is within bounds')
    .action(async (opts: { data: string; term?: string; force?: boolean }, cmd: Command) => {
      try {
        const { before, after } = await repairResetTerm({
          dataDir: opts.data,
          ...(opts.term !== undefined ? { term: parseTerm(opts.term) } : {}),
          ...(opts.force ? { force: true } : {}),
        });
        const result = {
          dataDir: opts.data,
          before: before.hardState,
          after,
          lastLogTerm: before.lastLogTerm,
          problem: before.problem ?? '',
        };
        if (globals(cmd).json) printJson(result);
        else {
          process.stdout.write(
            `reset-term ${opts.data}: term ${before.hardState.term} -> ${after.term}, vote "${before.hardState.vote}" -> "", commit ${after.commit} kept (log's last term ${before.lastLogTerm})\n`,
          );
        }
      } catch (error) {
        if (error instanceof TermRepairError)
          throw new CliError(`reset-term: ${error.message}`, ExitCode.CONFLICT);
        throw error;
      }
    });
}
