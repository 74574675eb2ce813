#!/usr/bin/env node
import { errorLine, exitCodeOf, QuietExit } from './exit-codes.js';
import { buildProgram, CommanderError, commanderExitCode } from './program.js';

// `fermata topics ls | head`: a closed pipe ends the command quietly.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const program = buildProgram();
try {
  await program.parseAsync(process.argv);
  // Client commands end here; `serve` keeps the process alive on its own.
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = commanderExitCode(err);
  } else {
    if (!(err instanceof QuietExit)) process.stderr.write(`${errorLine(err)}\n`);
    process.exitCode = exitCodeOf(err);
  }
}
