import { FermataError, NotLeaderError, StatusCode } from '@fermata/sdk';

/**
 * The exit codes of `fermata`, for scripts. Documented in docs/cli.md; the
 * tests check them.
 */
export const ExitCode = {
  /** The command did what was asked. */
  OK: 0,
  /** The server refused or failed the request (any status not listed below). */
  SERVER_ERROR: 1,
  /** The command line is wrong, or the server said INVALID_ARGUMENT: retrying as is cannot help. */
  USAGE: 2,
  /** The topic, group or message does not exist (NOT_FOUND, or cancel/reschedule answered not-found). */
  NOT_FOUND: 3,
  /** No node or no leader answered within the deadline (UNAVAILABLE, DEADLINE_EXCEEDED). */
  UNAVAILABLE: 4,
  /** The target exists but its state refuses the change: ALREADY_EXISTS, or the message is in flight or done. */
  CONFLICT: 5,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** An error the CLI raises itself: printed as one line, exits with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A bad command line (exit 2). */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.USAGE);
    this.name = 'UsageError';
  }
}

/** An exit code without an error line: the result was already printed. */
export class QuietExit extends CliError {
  constructor(exitCode: number) {
    super('', exitCode);
    this.name = 'QuietExit';
  }
}

/** The exit code for an error the SDK threw. */
export function exitCodeOf(err: unknown): number {
  if (err instanceof CliError) return err.exitCode;
  if (err instanceof NotLeaderError) return ExitCode.UNAVAILABLE;
  if (err instanceof FermataError) {
    switch (err.code) {
      case StatusCode.INVALID_ARGUMENT:
        return ExitCode.USAGE;
      case StatusCode.NOT_FOUND:
        return ExitCode.NOT_FOUND;
      case StatusCode.UNAVAILABLE:
      case StatusCode.DEADLINE_EXCEEDED:
        return ExitCode.UNAVAILABLE;
      case StatusCode.ALREADY_EXISTS:
        return ExitCode.CONFLICT;
      default:
        return ExitCode.SERVER_ERROR;
    }
  }
  // A RangeError/TypeError from the SDK's local checks is a bad argument too.
  if (err instanceof RangeError || err instanceof TypeError) return ExitCode.USAGE;
  return ExitCode.SERVER_ERROR;
}

/** The one line printed on stderr for an error. */
export function errorLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return `fermata: error: ${text.replace(/\s*\n\s*/g, ' ').trim()}`;
}
