/**
 * A dead letter's DeadLetterInfo (records.proto), stored apart from its
 * headers, handed to consumers as headers when it is delivered or read:
 * why it was dead-lettered, from where, after how many attempts, and the last
 * failure a consumer reported. Clients cannot publish `fermata-` headers, so
 * these cannot be forged.
 */
import type { BodyRec } from '../state/records.js';

export const DEAD_LETTER_HEADER = {
  reason: 'fermata-dead-letter-reason',
  sourceTopic: 'fermata-dead-letter-source-topic',
  sourceGroup: 'fermata-dead-letter-source-group',
  sourceId: 'fermata-dead-letter-source-id',
  attempts: 'fermata-dead-letter-attempts',
  lastError: 'fermata-dead-letter-last-error',
} as const;

/** The headers to hand out with `body`: its own, and for a dead letter the DEAD_LETTER_HEADER ones. */
export function headersOf(body: BodyRec): Readonly<Record<string, string>> {
  const d = body.deadLetter;
  if (!d) return body.headers;
  return {
    ...body.headers,
    [DEAD_LETTER_HEADER.reason]: d.reason,
    [DEAD_LETTER_HEADER.sourceTopic]: d.sourceTopic,
    [DEAD_LETTER_HEADER.sourceGroup]: d.sourceGroup,
    [DEAD_LETTER_HEADER.sourceId]: d.sourceId.toString(),
    [DEAD_LETTER_HEADER.attempts]: String(d.attempts),
    ...(d.lastError !== '' ? { [DEAD_LETTER_HEADER.lastError]: d.lastError } : {}),
  };
}
