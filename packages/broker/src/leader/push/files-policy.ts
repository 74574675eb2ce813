/**
 * Which files push groups may name (the node's `push.filesDir`): a group's
 * secret_file and ca_file must lie inside that directory once `..` and
 * symbolic links are resolved, so a topic admin cannot have the leader sign
 * with, or trust, any file the server can read (the token file, a key).
 * Judged before a group is created or changed, and again at every read.
 * No error holds a file's content.
 */
import { constants } from 'node:fs';
import { type FileHandle, open, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const SETTING = 'push.filesDir';

/** `inner` is `dir` or below it (both resolved). */
function within(dir: string, inner: string): boolean {
  const r = relative(dir, inner);
  return r !== '' && r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r);
}

/** Names the field and the error's code only: never the file's content. */
const unreadable = (field: string, path: string, err: unknown): Error =>
  new Error(
    `${field}: ${path} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
  );

const missing = (err: unknown): boolean => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** The real path of `path`, or of its nearest existing ancestor joined with the rest (a file not made yet). */
async function realpathOrAncestor(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (err) {
    const parent = dirname(path);
    if (!missing(err) || parent === path) throw err;
    return join(await realpathOrAncestor(parent), basename(path));
  }
}

export class PushFilesPolicy {
  private constructor(private readonly dir: string) {}

  /** Parses the setting: empty (no file may be named) or an absolute directory. */
  static parse(setting: string): PushFilesPolicy {
    if (setting !== '' && !isAbsolute(setting))
      throw new Error(`${SETTING}: must be an absolute directory, got "${setting}"`);
    return new PushFilesPolicy(setting === '' ? '' : resolve(setting));
  }

  /**
   * Why `path` (named by `field`) is refused, or undefined when it lies in
   * the directory. A file that does not exist yet is judged by its nearest
   * existing ancestor: the pusher waits for it, and checks it again then.
   */
  async check(path: string, field: string): Promise<string | undefined> {
    try {
      await this.resolved(path, field);
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  }

  /** The file's bytes, read only if it lies in the directory (a link swapped in at the end is not followed). */
  async read(path: string, field: string): Promise<Buffer> {
    const real = await this.resolved(path, field);
    let file: FileHandle;
    try {
      file = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (err) {
      throw unreadable(field, path, err);
    }
    try {
      const s = await file.stat();
      if (!s.isFile()) throw new Error(`${field}: ${path} is not a regular file`);
      return await file.readFile();
    } finally {
      await file.close();
    }
  }

  /** The real path of `path` within the directory, or an error naming `field` and the setting. */
  private async resolved(path: string, field: string): Promise<string> {
    if (this.dir === '')
      throw new Error(
        `${field}: no file may be named: the nodes' ${SETTING} is not set (the directory push groups' secret and CA files must lie in)`,
      );
    const outside = `${field}: ${path} is not within ${SETTING} (${this.dir})`;
    const lexical = resolve(path);
    if (!within(this.dir, lexical)) throw new Error(outside);
    let dir: string;
    try {
      dir = await realpath(this.dir);
    } catch (err) {
      throw new Error(
        `${field}: ${SETTING} ${this.dir} cannot be read: ${(err as NodeJS.ErrnoException).code}`,
      );
    }
    let real: string;
    try {
      real = await realpathOrAncestor(lexical);
    } catch (err) {
      throw unreadable(field, path, err);
    }
    if (!within(dir, real)) throw new Error(`${outside}: it resolves to a file outside it`);
    return real;
  }
}
