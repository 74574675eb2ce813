/**
 * What a client may put in a message's headers, checked by the leader before
 * it proposes a publish or a schedule (not at apply: entries written before
 * these rules apply as they did). Names are HTTP tokens and values HTTP field
 * values (RFC 9110 5.1, 5.5: no NUL, CR, LF or other control character but
 * tab), so that a delivery forwarded over HTTP carries them verbatim. Names
 * starting with `fermata-` (any case) are the server's: dead-letter markers
 * and schedule headers a publisher must not be able to forge.
 */

import { ValidationError } from '../model/errors.js';
import type { PublishInput } from './commands.js';

/** The prefix of the header names the server writes (case-insensitive). */
export const RESERVED_HEADER_PREFIX = 'fermata-';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Whether `value` holds a control character but horizontal tab: NUL, CR, LF and the rest of C0, or DEL. */
function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) return true;
  }
  return false;
}

/** Checks one message's headers; `field` names them in an error (e.g. `messages[3].headers`). */
export function validateClientHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  field: string,
): void {
  if (!headers) return;
  for (const name in headers) {
    if (!TOKEN.test(name)) {
      throw new ValidationError(
        field,
        `header name ${JSON.stringify(name)} is not an HTTP token (letters, digits and !#$%&'*+-.^_\`|~ only)`,
      );
    }
    if (
      name.length >= RESERVED_HEADER_PREFIX.length &&
      name.slice(0, 8).toLowerCase() === RESERVED_HEADER_PREFIX
    ) {
      throw new ValidationError(
        field,
        `header name ${JSON.stringify(name)} starts with "${RESERVED_HEADER_PREFIX}", which only the server writes`,
      );
    }
    const value = headers[name] ?? '';
    if (hasControl(value)) {
      throw new ValidationError(
        field,
        `header ${JSON.stringify(name)} has a control character (NUL, CR, LF, ...) in its value`,
      );
    }
  }
}

/** Every message of a client's publish (fields `messages[i].headers`). */
export function validateClientMessages(messages: readonly PublishInput[]): void {
  for (let i = 0; i < messages.length; i++) {
    const h = messages[i]!.headers;
    if (h !== undefined) {
      let any = false;
      for (const _ in h) {
        any = true;
        break;
      }
      if (any) validateClientHeaders(h, `messages[${i}].headers`);
    }
  }
}
