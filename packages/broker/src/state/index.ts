export * from './commands.js';
export * from './errors.js';
export { EventRepository } from './event-repository.js';
export { META, NS } from './layout.js';
export * from './limits.js';
export * from './reader.js';
export type * from './records.js';
export type * from './results.js';
export { SnapshotFormatError } from './snapshot.js';
export { BrokerStateMachine, type BrokerStateMachineOptions, type DueListener } from './state-machine.js';
export type { DueChange } from './stores/entries.js';
export { validateCommand } from './validate-command.js';
export {
  deadLetterIdCount,
  deadLetterTopicOf,
  resolveDue,
  settingsForCreate,
  settingsForUpdate,
  validateGroupName,
  validateMessage,
  validatePublish,
  validateTag,
  validateTopicName,
} from './validation.js';
