#!/usr/bin/env node
import { errorLine, exitCodeOf, QuietExit } from './exit-codes.js';
import { buildProgram, CommanderError, commanderExitCode } from './program.js';

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
