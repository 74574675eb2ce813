import { createHash, randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { globals } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { printJson } from '../format.js';

/** Bytes of a generated token (256 bits, hex-encoded). */
export const GENERATED_TOKEN_BYTES = 32;

export function sha256Hex(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * `fermata hash-token [token]`: the SHA-256 to put in the server's token file
 * (`auth.tokensFile`), for a given token or, with --generate, a new random one.
 */
export function registerHashToken(program: Command): void {
  program
    .command('hash-token')
    .description('print the sha256 of a token for auth.tokensFile (--generate: make a new random token)')
    .argument('[token]', 'the token (default: read from stdin)')
    .option('--generate', `generate a random ${GENERATED_TOKEN_BYTES * 8}-bit token`)
    .action(async (token: string | undefined, opts: { generate?: boolean }, cmd: Command) => {
      let value = token;
      if (opts.generate) value = randomBytes(GENERATED_TOKEN_BYTES).toString('hex');
      if (value === undefined) {
        const chunks: Buffer[] = [];
        for await (const c of process.stdin) chunks.push(c as Buffer);
        value = Buffer.concat(chunks).toString('utf8').trim();
      }
      if (value === '') throw new UsageError('hash-token: the token is empty');
      const hash = sha256Hex(value);
      if (globals(cmd).json) printJson(opts.generate ? { token: value, sha256: hash } : { sha256: hash });
      else process.stdout.write(opts.generate ? `token:  ${value}\nsha256: ${hash}\n` : `${hash}\n`);
    });
}
