/**
 * A dead letter's DeadLetterInfo (records.proto), stored apart from its
 * headers, handed to consumers as headers when it is delivered or read:
 * why it was dead-lettered, from where, after how many attempts, and the last
 * failure a consumer reported. Clients cannot publish `fermata-` headers, so
 * these cannot be forged.
 */
import { DEAD_LETTER_HEADERS } from '@fermata/protocol';
import type { BodyRec } from '../state/model/records.js';

/** The headers to hand out with `body`: its own, and for a dead letter the DEAD_LETTER_HEADERS ones. */
export function headersOf(body: BodyRec): Readonly<Record<string, string>> {
  const d = body.deadLetter;
  if (!d) return body.headers;
  return {
    ...body.headers,
    [DEAD_LETTER_HEADERS.reason]: d.reason,
    [DEAD_LETTER_HEADERS.sourceTopic]: d.sourceTopic,
    [DEAD_LETTER_HEADERS.sourceGroup]: d.sourceGroup,
    [DEAD_LETTER_HEADERS.sourceId]: d.sourceId.toString(),
    [DEAD_LETTER_HEADERS.attempts]: String(d.attempts),
    ...(d.lastError !== '' ? { [DEAD_LETTER_HEADERS.lastError]: d.lastError } : {}),
  };
}
