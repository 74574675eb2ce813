import { Command, CommanderError, Option } from 'commander';
import { registerBackup } from './commands/backup.js';
import { registerConsume } from './commands/consume.js';
import { registerDlq } from './commands/dlq.js';
import { registerGroups } from './commands/groups.js';
import { registerHashToken } from './commands/hash-token.js';
import { registerMembers } from './commands/members.js';
import { registerMessages } from './commands/messages.js';
import { registerPublish } from './commands/publish.js';
import { registerPush } from './commands/push.js';
import { registerRepair } from './commands/repair.js';
import { registerRestore } from './commands/restore.js';
import { registerSchedules } from './commands/schedules.js';
import { registerStatus } from './commands/status.js';
import { registerTopics } from './commands/topics.js';
import { DEFAULT_DEADLINE, DEFAULT_ENDPOINTS } from './context.js';
import { ExitCode } from './exit-codes.js';

/** Options every client command takes; they may come before or after the command name. */
function addGlobalOptions(program: Command): void {
  program
    .addOption(
      new Option('-e, --endpoints <list>', 'client addresses of some or all nodes, comma-separated')
        .env('FERMATA_ENDPOINTS')
        .default(DEFAULT_ENDPOINTS),
    )
    .addOption(new Option('--token <token>', 'bearer token sent with every call').env('FERMATA_TOKEN'))
    .option('--tls', 'connect over TLS trusting the system CAs (implied by --tls-ca, --tls-cert)')
    .addOption(
      new Option('--tls-ca <file>', 'PEM CA certificate(s) that sign the servers’ certificates').env(
        'FERMATA_TLS_CA',
      ),
    )
    .addOption(new Option('--tls-cert <file>', 'PEM client certificate (mutual TLS)').env('FERMATA_TLS_CERT'))
    .addOption(new Option('--tls-key <file>', 'PEM key of --tls-cert').env('FERMATA_TLS_KEY'))
    .addOption(
      new Option('--tls-server-name <name>', 'server name to verify when it differs from the address').env(
        'FERMATA_TLS_SERVER_NAME',
      ),
    )
    .addOption(
      new Option('--deadline <duration>', 'budget of each call, retries included')
        .env('FERMATA_DEADLINE')
        .default(DEFAULT_DEADLINE),
    )
    .option('--json', 'print JSON instead of tables')
    .option('-v, --verbose', 'log what the client does (retries, leader changes) on stderr');
}

/** The `fermata` command line. `serve` is loaded lazily, so client commands never load the server. */
export function buildProgram(): Command {
  const program = new Command('fermata')
    .description('Fermata: a replicated delay-message broker')
    .version('0.1.0')
    .showSuggestionAfterError()
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      outputError: (text, write) => write(`fermata: ${text}`),
    });
  addGlobalOptions(program);

  program
    .command('serve')
    .description('run a Fermata node (configuration from --config / FERMATA_CONFIG and FERMATA_* variables)')
    .option('-c, --config <file>', 'YAML configuration file')
    .action(async (opts: { config?: string }) => {
      const { serve } = await import('./commands/serve.js');
      await serve(opts);
    });

  registerStatus(program);
  registerPublish(program);
  registerConsume(program);
  registerTopics(program);
  registerGroups(program);
  registerPush(program);
  registerMessages(program);
  registerDlq(program);
  registerSchedules(program);
  registerMembers(program);
  registerHashToken(program);
  registerRepair(program);
  registerBackup(program);
  registerRestore(program);

  program.addHelpText(
    'after',
    `
Exit codes: 0 ok, 1 error from the server, 2 usage error (or INVALID_ARGUMENT),
3 not found, 4 cluster unavailable, 5 conflict (already exists, in flight, done),
130 publish from stdin interrupted by Ctrl-C.
Durations: 250ms, 5s, 10m, 2h, 1d, 1h30m (a plain number is ms).
Times: ISO 8601 (2026-12-01T09:00:00Z), epoch ms, now, +10m, -1h.
Docs: docs/cli.md`,
  );
  return program;
}

/** Commander's own exits: help and version are 0, every parse error is a usage error. */
export function commanderExitCode(err: CommanderError): number {
  if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return ExitCode.OK;
  if (err.code === 'commander.help') return ExitCode.OK;
  if (err.exitCode === 0) return ExitCode.OK;
  return ExitCode.USAGE;
}

export { CommanderError };
