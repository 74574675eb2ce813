/**
 * The Fermata producer/consumer SDK. Start with {@link FermataClient}.
 * @packageDocumentation
 */

export type {
  AddMemberOptions,
  ClusterInfo,
  DeadlineAction,
  DeletionProgress,
  ExpiryAction,
  GroupSettings,
  GroupSettingsView,
  GroupStats,
  Member,
  MemberRole,
  Ordering,
  PushStats,
  Topic,
  TopicSettings,
  TopicStats,
} from './admin-model.js';
export type { AutoExtendOptions } from './auto-extend.js';
export { type BackoffPolicy, DEFAULT_NACK_BACKOFF, DEFAULT_RETRY_BACKOFF } from './backoff.js';
export type { BackupInfo, BackupPiece, BackupStream, BackupTotals } from './backup.js';
export { type BatchOptions, type CallOptions, FermataClient, MAX_PUBLISH_BATCH } from './client.js';
export {
  AlreadyExistsError,
  ClosedError,
  ConnectError,
  DeadlineExceededError,
  type EndpointFailure,
  FermataError,
  InvalidArgumentError,
  LEADER_METADATA_KEY,
  LeaseExpiredError,
  LimitError,
  NotFoundError,
  NotLeaderError,
  PermissionDeniedError,
  StatusCode,
  UnauthenticatedError,
  UnavailableError,
} from './errors.js';
export type { DueForecast, DueForecastOptions, ForecastBucket } from './forecast-model.js';
export {
  DEAD_LETTER_HEADERS,
  type DeadLetter,
  MAX_NACK_ERROR_BYTES,
  Message,
  type Settlement,
} from './message.js';
export type {
  CancelResult,
  GroupMessageState,
  ListedMessage,
  ListMessagesOptions,
  MessageDetails,
  MessageInfo,
  MessagePage,
  MessageRef,
  MessageState,
  RedriveResult,
  RescheduleResult,
  Schedule,
} from './messages-model.js';
export { type ClientOptions, consoleLogger, type Logger, silentLogger, type TlsOptions } from './options.js';
export { decodeJson, decodeText, json, type Payload } from './payload.js';
export { type Durability, Producer, type ProducerOptions } from './producer.js';
export { type PublishInput, type PublishOptions, type PublishResult, SDK_KEY_PREFIX } from './publishing.js';
export {
  DEFAULT_SIGNATURE_TOLERANCE_MS,
  type PushSettings,
  type PushSettingsView,
  type PushTestResult,
  type VerifyPushOptions,
  verifyPushSignature,
} from './push.js';
export type {
  CatchUp,
  DstPolicy,
  RecurringSchedule,
  ScheduleDefinition,
  ScheduleStatus,
} from './schedules-model.js';
export {
  MAX_PREFETCH,
  type MessageHandler,
  type SubscribeOptions,
  Subscription,
} from './subscription.js';
export {
  MAX_TRACESTATE_CHARS,
  TRACEPARENT_HEADER,
  TRACESTATE_HEADER,
} from './trace-context.js';
