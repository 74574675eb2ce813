/**
 * Header names the server sets on what it delivers; clients cannot publish
 * `fermata-` headers. A dead letter's: why it was dead-lettered, from where,
 * after how many attempts, and the last failure a consumer reported
 * (records.proto DeadLetterInfo).
 */
export const DEAD_LETTER_HEADERS = {
  reason: 'fermata-dead-letter-reason',
  sourceTopic: 'fermata-dead-letter-source-topic',
  sourceGroup: 'fermata-dead-letter-source-group',
  sourceId: 'fermata-dead-letter-source-id',
  attempts: 'fermata-dead-letter-attempts',
  lastError: 'fermata-dead-letter-last-error',
} as const;
