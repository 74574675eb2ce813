export * from './commands/commands.js';
export type * from './commands/results.js';
export { validateCommand } from './commands/validate-command.js';
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
} from './commands/validation.js';
export * from './model/errors.js';
export * from './model/limits.js';
export type * from './model/records.js';
export * from './read/reader.js';
export { SnapshotFormatError } from './snapshot/snapshot.js';
export { BrokerStateMachine, type BrokerStateMachineOptions, type DueListener } from './state-machine.js';
export type { DueChange } from './stores/entries.js';
export { EventRepository } from './stores/event-repository.js';
