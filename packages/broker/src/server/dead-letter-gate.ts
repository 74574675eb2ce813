/**
 * Whether a topic's dead letters may still go to its configured dead-letter
 * topic. Setting one needs the publish permission on it (the auth
 * interceptor checks it at CreateTopic and UpdateTopic, and the setting
 * records the token that set it); apply knows no tokens, so the leader asks
 * again each time it proposes a command that may write dead letters (a lease,
 * an expire) and marks the command when the answer is no: its dead letters
 * then go to the topic's own `<topic>.dlq`, and nothing is written where the
 * token may no longer write.
 */
import type { DeadLetterGate } from '../leader/dead-letter-gate.js';
import type { TokenTable } from './auth.js';

export function deadLetterGate(tokens: () => TokenTable): DeadLetterGate {
  return (topic) => {
    const target = topic.settings.deadLetterTopic;
    // The default target is the topic's own: no permission beyond the topic's is needed.
    if (target === '' || target === `${topic.name}.dlq`) return true;
    const table = tokens();
    if (!table.enabled) return true;
    const who = table.principalByName(topic.settings.deadLetterAuthorizedBy);
    return who?.can('publish', target) === true;
  };
}
