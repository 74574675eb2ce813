import type { AddMemberOptions, TopicSettings } from './admin-model.js';
import type { AutoExtendOptions } from './auto-extend.js';
import type { BackoffPolicy } from './backoff.js';
import type { BatchOptions, CallOptions } from './client.js';
import type { ListMessagesOptions } from './messages-model.js';
import type { ClientOptions, TlsOptions } from './options.js';
import { optionNames } from './options-check.js';
import type { ProducerOptions } from './producer.js';
import type { PublishInput, PublishOptions } from './publishing.js';
import type { ScheduleDefinition } from './schedules-model.js';
import type { SubscribeOptions } from './subscription.js';

/** The names of every options object the SDK takes, each list complete (it would not compile otherwise). */
export const OPTION_NAMES = {
  client: optionNames<ClientOptions>()([
    'endpoints',
    'tls',
    'token',
    'deadlineMs',
    'connectTimeoutMs',
    'retry',
    'discoveryTimeoutMs',
    'attemptTimeoutMs',
    'idempotentPublish',
    'channelOptions',
    'logger',
  ]),
  tls: optionNames<TlsOptions>()(['ca', 'cert', 'key', 'serverName']),
  backoff: optionNames<BackoffPolicy>()(['initialMs', 'multiplier', 'maxMs', 'jitter']),
  call: optionNames<CallOptions>()(['deadlineMs']),
  batch: optionNames<BatchOptions>()(['deadlineMs', 'durability']),
  publish: optionNames<PublishOptions & BatchOptions>()([
    'delayMs',
    'deliverAt',
    'ttlMs',
    'key',
    'headers',
    'deadlineMs',
    'durability',
  ]),
  publishInput: optionNames<PublishInput>()([
    'topic',
    'payload',
    'delayMs',
    'deliverAt',
    'ttlMs',
    'key',
    'headers',
  ]),
  send: optionNames<PublishOptions>()(['delayMs', 'deliverAt', 'ttlMs', 'key', 'headers']),
  producer: optionNames<ProducerOptions>()([
    'lingerMs',
    'maxBatchMessages',
    'maxBatchBytes',
    'maxInFlightBatches',
    'maxBufferedMessages',
    'maxBufferedBytes',
    'maxWaitingSends',
    'durability',
  ]),
  subscribe: optionNames<SubscribeOptions>()([
    'group',
    'prefetch',
    'leaseMs',
    'concurrency',
    'mode',
    'retryBackoff',
    'autoExtend',
    'drainTimeoutMs',
    'onError',
  ]),
  autoExtend: optionNames<AutoExtendOptions>()(['extendByMs', 'maxTotalMs']),
  listMessages: optionNames<ListMessagesOptions & CallOptions>()([
    'group',
    'fromDueMs',
    'toDueMs',
    'limit',
    'pageToken',
    'deadlineMs',
  ]),
  listSchedules: optionNames<{ afterName?: string; limit?: number; next?: number } & CallOptions>()([
    'afterName',
    'limit',
    'next',
    'deadlineMs',
  ]),
  schedule: optionNames<ScheduleDefinition>()([
    'spec',
    'timeZone',
    'payload',
    'headers',
    'keyTemplate',
    'startAt',
    'endAt',
    'jitterMs',
    'catchUp',
    'dstPolicy',
    'misfireThresholdMs',
    'paused',
  ]),
  topicSettings: optionNames<TopicSettings>()([
    'maxAttempts',
    'defaultLeaseMs',
    'deadLetterTopic',
    'expiryAction',
    'timeBucketMs',
    'dedupWindowMs',
  ]),
  addMember: optionNames<AddMemberOptions>()(['peerAddress', 'address', 'learnerOnly']),
  nack: optionNames<{ delayMs?: number; error?: string }>()(['delayMs', 'error']),
} as const;
