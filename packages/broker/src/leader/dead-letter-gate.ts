import type { TopicRec } from '../state/model/records.js';

/**
 * Whether the topic's dead letters may go to its configured dead-letter topic
 * (server/dead-letter-gate.ts answers from the tokens in force); when not,
 * the leader's lease and expire commands send them to `<topic>.dlq` instead.
 */
export type DeadLetterGate = (topic: TopicRec) => boolean;

export const allowAllDeadLetters: DeadLetterGate = () => true;
