/**
 * The token file (`auth.tokensFile`), re-read when it changes: new calls see
 * the new tokens at once, and the listeners (`onChange`: the auth
 * interceptor) end the open calls the new tokens no longer allow. A file that no longer parses is logged and the previous
 * tokens stay in force (never "no tokens", which would switch auth off).
 */
import { readFileSync } from 'node:fs';
import { parseTokenFile, TokenFileError, TokenTable } from './auth.js';

export interface TokenFileLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export class TokenFile {
  private table: TokenTable;
  private text: string;
  private readonly timer: NodeJS.Timeout | undefined;
  private lastProblem = '';
  private readonly listeners: Array<(table: TokenTable) => void> = [];

  /** `path` '' = no file: authentication off. Throws TokenFileError for an unusable file. */
  constructor(
    readonly path: string,
    reloadIntervalMs: number,
    private readonly log?: TokenFileLog,
  ) {
    this.text = path === '' ? '' : readText(path);
    this.table = new TokenTable(path === '' ? [] : parseTokenFile(this.text, path));
    if (path !== '' && !this.table.enabled)
      throw new TokenFileError(
        `${path}: defines no tokens; remove auth.tokensFile to turn authentication off`,
      );
    if (path !== '' && reloadIntervalMs > 0) {
      this.timer = setInterval(() => this.check(), reloadIntervalMs);
      this.timer.unref();
    }
  }

  /** The tokens in force. */
  tokens(): TokenTable {
    return this.table;
  }

  /** Calls `listener` with each new table, right after it replaced the previous one. */
  onChange(listener: (table: TokenTable) => void): void {
    this.listeners.push(listener);
  }

  /** Re-reads the file; returns whether the tokens changed. */
  check(): boolean {
    let text: string;
    let next: TokenTable;
    try {
      text = readText(this.path);
      if (text === this.text) return false;
      next = new TokenTable(parseTokenFile(text, this.path));
      if (!next.enabled) throw new TokenFileError(`${this.path}: defines no tokens`);
    } catch (err) {
      const problem = (err as Error).message;
      if (problem !== this.lastProblem) {
        this.lastProblem = problem;
        this.log?.warn(
          { err: problem },
          'token file changed but cannot be used; keeping the previous tokens',
        );
      }
      return false;
    }
    this.lastProblem = '';
    this.text = text;
    this.table = next;
    this.log?.info({ tokens: next.tokens.map((t) => t.name) }, 'token file reloaded');
    for (const l of this.listeners) l(next);
    return true;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new TokenFileError(`cannot read the token file ${path}: ${(err as Error).message}`);
  }
}
