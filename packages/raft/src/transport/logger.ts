/**
 * The logging the raft package needs: a pino-compatible subset, so the broker
 * passes its pino logger and tests pass nothing (warnings and errors then go
 * to stderr as JSON lines).
 */
export interface Logger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

function line(level: string, fields: object, message: string): void {
  process.stderr.write(`${JSON.stringify({ level, time: Date.now(), ...fields, msg: message })}\n`);
}

/** Warnings and errors to stderr; debug and info dropped. */
export const stderrLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (fields, message) => line('warn', fields, message),
  error: (fields, message) => line('error', fields, message),
};

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
