// Compile-time proof that each list of option-names.ts names exactly the options of its
// interface (a missing or extra name does not compile). No module imports this one: the
// interfaces' modules import option-names.ts, and type imports count in the module graph.
import type { AddMemberOptions, GroupSettings, TopicSettings } from './admin-model.js';
import type { AutoExtendOptions } from './auto-extend.js';
import type { BackoffPolicy } from './backoff.js';
import type { BatchOptions, CallOptions } from './client.js';
import type { DueForecastOptions } from './forecast-model.js';
import type { ListMessagesOptions } from './messages-model.js';
import type { OPTION_NAMES } from './option-names.js';
import type { ClientOptions, TlsOptions } from './options.js';
import type { ProducerOptions } from './producer.js';
import type { PublishInput, PublishOptions } from './publishing.js';
import type { PushSettings } from './push.js';
import type { ScheduleDefinition } from './schedules-model.js';
import type { SubscribeOptions } from './subscription.js';

/** `true` when the names are exactly the keys of T, else a type naming what is missing or extra. */
type Exactly<T, Names extends readonly string[]> = [
  Exclude<keyof T, Names[number]>,
  Exclude<Names[number], keyof T>,
] extends [never, never]
  ? true
  : { missing: Exclude<keyof T, Names[number]>; extra: Exclude<Names[number], keyof T> };

export const complete: {
  client: Exactly<ClientOptions, typeof OPTION_NAMES.client>;
  tls: Exactly<TlsOptions, typeof OPTION_NAMES.tls>;
  backoff: Exactly<BackoffPolicy, typeof OPTION_NAMES.backoff>;
  call: Exactly<CallOptions, typeof OPTION_NAMES.call>;
  batch: Exactly<BatchOptions, typeof OPTION_NAMES.batch>;
  publish: Exactly<PublishOptions & BatchOptions, typeof OPTION_NAMES.publish>;
  publishInput: Exactly<PublishInput, typeof OPTION_NAMES.publishInput>;
  send: Exactly<PublishOptions, typeof OPTION_NAMES.send>;
  producer: Exactly<ProducerOptions, typeof OPTION_NAMES.producer>;
  subscribe: Exactly<SubscribeOptions, typeof OPTION_NAMES.subscribe>;
  autoExtend: Exactly<AutoExtendOptions, typeof OPTION_NAMES.autoExtend>;
  listMessages: Exactly<ListMessagesOptions & CallOptions, typeof OPTION_NAMES.listMessages>;
  dueForecast: Exactly<DueForecastOptions & CallOptions, typeof OPTION_NAMES.dueForecast>;
  listSchedules: Exactly<
    { afterName?: string; limit?: number; next?: number } & CallOptions,
    typeof OPTION_NAMES.listSchedules
  >;
  schedule: Exactly<ScheduleDefinition, typeof OPTION_NAMES.schedule>;
  topicSettings: Exactly<TopicSettings, typeof OPTION_NAMES.topicSettings>;
  groupSettings: Exactly<GroupSettings, typeof OPTION_NAMES.groupSettings>;
  pushSettings: Exactly<PushSettings, typeof OPTION_NAMES.pushSettings>;
  addMember: Exactly<AddMemberOptions, typeof OPTION_NAMES.addMember>;
  nack: Exactly<{ delayMs?: number; error?: string }, typeof OPTION_NAMES.nack>;
} = {
  client: true,
  tls: true,
  backoff: true,
  call: true,
  batch: true,
  publish: true,
  publishInput: true,
  send: true,
  producer: true,
  subscribe: true,
  autoExtend: true,
  listMessages: true,
  dueForecast: true,
  listSchedules: true,
  schedule: true,
  topicSettings: true,
  groupSettings: true,
  pushSettings: true,
  addMember: true,
  nack: true,
};
