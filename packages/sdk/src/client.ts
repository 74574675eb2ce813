// The public client. Over 400 lines: one short method per API call, each documented for users.

import { type pb, toBigInt, toInt64, toSafeNumber, toUint64, v1 } from '@fermata/protocol';
import {
  type AddMemberOptions,
  type ClusterInfo,
  clusterInfoFromWire,
  type GroupSettings,
  groupSettingsToWire,
  groupUpdateMask,
  type Member,
  memberFromWire,
  settingsToWire,
  statsFromWire,
  type Topic,
  type TopicSettings,
  type TopicStats,
  topicFromWire,
  updateMask,
} from './admin-model.js';
import { DEFAULT_RETRY_BACKOFF, resolveBackoff } from './backoff.js';
import { type BackupStream, openBackup } from './backup.js';
import { type CallContext, Connection, unary } from './connection.js';
import { ClosedError, FermataError, withoutBatchPosition } from './errors.js';
import {
  type DueForecast,
  type DueForecastOptions,
  forecastFromWire,
  forecastRequest,
} from './forecast-model.js';
import {
  type CancelResult,
  cancelFromWire,
  detailsFromWire,
  type ListedMessage,
  type ListMessagesOptions,
  type MessageDetails,
  type MessagePage,
  type MessageRef,
  pageFromWire,
  parseId,
  type RedriveResult,
  type RescheduleResult,
  redriveFromWire,
  refToWire,
  rescheduleFromWire,
  type Schedule,
  scheduleToWire,
} from './messages-model.js';
import { OPTION_NAMES } from './option-names.js';
import { type ClientOptions, consoleLogger } from './options.js';
import { checkOptions } from './options-check.js';
import type { Payload } from './payload.js';
import { type Durability, Producer, type ProducerOptions } from './producer.js';
import {
  fromPublishResult,
  newIdempotencyKey,
  type PublishInput,
  type PublishOptions,
  type PublishResult,
  wireMessage,
} from './publishing.js';
import type { PushTestResult } from './push.js';
import {
  definitionToWire,
  type RecurringSchedule,
  type ScheduleDefinition,
  type ScheduleStatus,
  scheduleFromWire,
  scheduleStatusFromWire,
} from './schedules-model.js';
import { type MessageHandler, type SubscribeOptions, Subscription } from './subscription.js';
import { startPublishTrace } from './trace-context.js';

/** Options of one call: its own deadline instead of the client's. */
export interface CallOptions {
  /** Budget of this call in ms, retries included. */
  deadlineMs?: number;
}

/** Options of {@link FermataClient.publishBatch} and {@link FermataClient.publishDetailed}. */
export interface BatchOptions extends CallOptions {
  /** Default `quorum`. */
  durability?: Durability;
}

/** Most messages in one `publishBatch` call on the client side (the server's limit may be lower). */
export const MAX_PUBLISH_BATCH = 10_000;

const DEFAULT_DEADLINE_MS = 30_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 3_000;

/**
 * An endpoint is host:port (or a gRPC target such as `dns:///host:port`): a
 * URL (`http://...`) is refused at once, with the endpoint to give instead.
 */
function checkEndpoint(endpoint: string, i: number): void {
  const url = /^(https?|grpcs?|tcp):\/\/([^/]*)/i.exec(endpoint);
  if (url) {
    throw new TypeError(
      `endpoints[${i}]: "${endpoint}" is a URL; give host:port, the node's client port (e.g. "${url[2]}", without ${url[1]}://)`,
    );
  }
  if (/^(dns|ipv4|ipv6|unix|unix-abstract):/i.test(endpoint)) return;
  if (!/:\d+$/.test(endpoint)) {
    throw new TypeError(`endpoints[${i}]: "${endpoint}" has no port; give host:port, the node's client port`);
  }
}
const DEFAULT_DISCOVERY_TIMEOUT_MS = 2_000;
const DEFAULT_ATTEMPT_TIMEOUT_MS = 5_000;

function durabilityToWire(d: Durability | undefined): pb.Durability {
  return d === 'leader' ? v1.Durability.DURABILITY_LEADER : v1.Durability.DURABILITY_QUORUM;
}

/**
 * A connection to a Fermata cluster. It finds the leader itself (through
 * `GetClusterInfo` on the endpoints), sends every call there, and retries on
 * "not leader" and "unavailable" with jittered exponential backoff until the
 * call's deadline. One client is meant to live as long as the application;
 * {@link FermataClient.close} ends it.
 *
 * @example
 * const client = new FermataClient({ endpoints: ['127.0.0.1:7400', '127.0.0.1:7410'] });
 * const id = await client.publish('emails', 'hello', { delayMs: 60_000 });
 * const sub = client.subscribe('emails', async (m) => console.log(m.id, m.text()));
 */
export class FermataClient {
  private readonly conn: Connection;
  private readonly autoKey: boolean;
  private readonly producers = new Set<Producer>();
  private readonly subscriptions = new Set<Subscription>();

  constructor(options: ClientOptions) {
    if (typeof options !== 'object' || options === null)
      throw new TypeError('new FermataClient(options) needs options with endpoints');
    checkOptions('new FermataClient options', options, OPTION_NAMES.client);
    if (typeof options.tls === 'object') checkOptions('options.tls', options.tls, OPTION_NAMES.tls);
    checkOptions('options.retry', options.retry, OPTION_NAMES.backoff);
    const endpoints = (
      typeof options.endpoints === 'string' ? options.endpoints.split(',') : options.endpoints
    )
      .map((e) => e.trim())
      .filter((e) => e !== '');
    endpoints.forEach((e, i) => {
      checkEndpoint(e, i);
    });
    const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    if (!(Number.isFinite(deadlineMs) && deadlineMs > 0))
      throw new RangeError(`deadlineMs must be > 0: ${deadlineMs}`);
    const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    if (!(Number.isFinite(connectTimeoutMs) && connectTimeoutMs > 0))
      throw new RangeError(`connectTimeoutMs must be > 0: ${connectTimeoutMs}`);
    this.conn = new Connection({
      endpoints,
      tls: options.tls,
      token: options.token,
      deadlineMs,
      connectTimeoutMs,
      retry: resolveBackoff(options.retry, DEFAULT_RETRY_BACKOFF),
      discoveryTimeoutMs: options.discoveryTimeoutMs ?? DEFAULT_DISCOVERY_TIMEOUT_MS,
      attemptTimeoutMs: options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
      channelOptions: options.channelOptions ?? {},
      logger: options.logger ?? consoleLogger,
      random: Math.random,
    });
    this.autoKey = options.idempotentPublish ?? true;
  }

  /** The leader's client address as last learned (undefined before the first call or after losing it). */
  get leaderAddress(): string | undefined {
    return this.conn.leaderAddress;
  }

  /** Runs `op` on the leader with retries; `options` (of the public call `name`) hold only `known` names. */
  private call<T>(
    name: string,
    op: (ctx: CallContext) => Promise<T>,
    options?: CallOptions,
    known: readonly string[] = OPTION_NAMES.call,
  ): Promise<T> {
    checkOptions(`${name} options`, options, known);
    return this.conn.call(name, op, options?.deadlineMs);
  }

  // ---- producing ----

  /**
   * Publishes one message and resolves with its id once it is stored on a
   * majority. Retried across failovers without duplicates (see `idempotentPublish`).
   */
  async publish(
    topic: string,
    payload: Payload,
    options: PublishOptions & BatchOptions = {},
  ): Promise<bigint> {
    return (await this.publishDetailed(topic, payload, options)).id;
  }

  /** Like {@link FermataClient.publish}, with the whole result: id, `deduplicated` and `dueAtMs`. */
  async publishDetailed(
    topic: string,
    payload: Payload,
    options: PublishOptions & BatchOptions = {},
  ): Promise<PublishResult> {
    checkOptions('publish options', options, OPTION_NAMES.publish);
    const { deadlineMs, durability, ...message } = options ?? {};
    const batch: BatchOptions = {
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
      ...(durability === undefined ? {} : { durability }),
    };
    try {
      const [result] = await this.publishBatch([{ ...message, topic, payload }], batch);
      return result!;
    } catch (e) {
      throw e instanceof FermataError ? withoutBatchPosition(e) : e;
    }
  }

  /**
   * Publishes several messages atomically (one Raft entry): all are stored or
   * none. Results come in the order of `messages`.
   */
  async publishBatch(messages: PublishInput[], options: BatchOptions = {}): Promise<PublishResult[]> {
    checkOptions('publishBatch options', options, OPTION_NAMES.batch);
    if (!Array.isArray(messages)) throw new TypeError('publishBatch takes an array of messages');
    messages.forEach((m, i) => {
      checkOptions(`publishBatch messages[${i}]`, m, OPTION_NAMES.publishInput);
    });
    if (messages.length === 0) return [];
    if (messages.length > MAX_PUBLISH_BATCH) {
      throw new RangeError(
        `publishBatch takes at most ${MAX_PUBLISH_BATCH} messages, got ${messages.length}`,
      );
    }
    const trace = startPublishTrace(messages.map((m) => m.topic));
    try {
      const wire = messages.map((m, i) =>
        wireMessage(m.topic, m.payload, m, messages.length > 1 ? `messages[${i}].` : '', trace?.headers(i)),
      );
      // The key is chosen once, before the first attempt, so every retry carries it.
      const request: pb.PublishRequest.$Properties = {
        messages: wire,
        durability: durabilityToWire(options.durability),
        ...(this.autoKey ? { idempotencyKey: newIdempotencyKey() } : {}),
      };
      const res = await this.call(
        'publish',
        ({ stubs, metadata, options: o }) =>
          unary<pb.PublishResponse>((cb) => stubs.broker.publish(request, metadata, o, cb)),
        options,
        OPTION_NAMES.batch,
      );
      if (res.results.length !== wire.length) {
        throw new RangeError(`the server answered ${res.results.length} results for ${wire.length} messages`);
      }
      trace?.end();
      return res.results.map(fromPublishResult);
    } catch (e) {
      trace?.end(e);
      throw e;
    }
  }

  /**
   * A high-rate producer batching over one `PublishStream` (see {@link Producer}).
   * Close it (or the client) to flush.
   */
  producer(options: ProducerOptions = {}): Producer {
    checkOptions('producer options', options, OPTION_NAMES.producer);
    if (this.conn.closed) throw new ClosedError('the client is closed');
    const p: Producer = new Producer(this.conn, options, this.autoKey, () => this.producers.delete(p));
    this.producers.add(p);
    return p;
  }

  // ---- consuming ----

  /**
   * Starts consuming `topic`. In auto mode the handler resolving acks the
   * message and a throw nacks it with the retry backoff. Delivery is
   * at-least-once: make handlers idempotent.
   */
  subscribe(topic: string, handler: MessageHandler): Subscription;
  subscribe(topic: string, options: SubscribeOptions, handler: MessageHandler): Subscription;
  subscribe(topic: string, a: SubscribeOptions | MessageHandler, b?: MessageHandler): Subscription {
    const [options, handler] = typeof a === 'function' ? [{}, a] : [a, b!];
    checkOptions('subscribe options', options, OPTION_NAMES.subscribe);
    if (typeof options?.retryBackoff === 'object')
      checkOptions('subscribe options.retryBackoff', options.retryBackoff, OPTION_NAMES.backoff);
    if (typeof options?.autoExtend === 'object')
      checkOptions('subscribe options.autoExtend', options.autoExtend, OPTION_NAMES.autoExtend);
    if (this.conn.closed) throw new ClosedError('the client is closed');
    const sub = new Subscription(this.conn, topic, options, handler);
    this.subscriptions.add(sub);
    sub.done.then(
      () => this.subscriptions.delete(sub),
      () => this.subscriptions.delete(sub),
    );
    return sub.start();
  }

  // ---- messages ----

  /** Cancels a pending message: `cancelled`, `not-found`, `in-flight` (being delivered) or `already-done`. */
  async cancel(topic: string, ref: MessageRef, options?: CallOptions): Promise<CancelResult> {
    const request = { topic, ...refToWire(ref) };
    const res = await this.call(
      'cancel',
      ({ stubs, metadata, options: o }) =>
        unary<pb.CancelResponse>((cb) => stubs.broker.cancel(request, metadata, o, cb)),
      options,
    );
    return cancelFromWire(res);
  }

  /** Moves a pending message to a new due time. */
  async reschedule(
    topic: string,
    ref: MessageRef,
    schedule: Schedule,
    options?: CallOptions,
  ): Promise<RescheduleResult> {
    const request = { topic, ...refToWire(ref), ...scheduleToWire(schedule) };
    const res = await this.call(
      'reschedule',
      ({ stubs, metadata, options: o }) =>
        unary<pb.RescheduleResponse>((cb) => stubs.broker.reschedule(request, metadata, o, cb)),
      options,
    );
    return rescheduleFromWire(res);
  }

  /** One message and its state in every group. Throws NotFoundError when there is none. */
  async getMessage(topic: string, ref: MessageRef, options?: CallOptions): Promise<MessageDetails> {
    const request = { topic, ...refToWire(ref) };
    const res = await this.call(
      'getMessage',
      ({ stubs, metadata, options: o }) =>
        unary<pb.GetMessageResponse>((cb) => stubs.broker.getMessage(request, metadata, o, cb)),
      options,
    );
    return detailsFromWire(res);
  }

  /** One page of a group's messages by due time. */
  async listMessages(topic: string, options: ListMessagesOptions & CallOptions = {}): Promise<MessagePage> {
    checkOptions('listMessages options', options, OPTION_NAMES.listMessages);
    const request: pb.ListMessagesRequest.$Properties = {
      topic,
      group: options.group ?? '',
      fromDueMs: toInt64(BigInt(options.fromDueMs ?? 0)),
      toDueMs: toInt64(BigInt(options.toDueMs ?? 0)),
      limit: options.limit ?? 0,
      pageToken: options.pageToken ?? new Uint8Array(0),
    };
    const res = await this.call(
      'listMessages',
      ({ stubs, metadata, options: o }) =>
        unary<pb.ListMessagesResponse>((cb) => stubs.broker.listMessages(request, metadata, o, cb)),
      options,
      OPTION_NAMES.listMessages,
    );
    return pageFromWire(res);
  }

  /**
   * How many pending messages of a topic's group fall due per bucket of a
   * time range (default: the next 60 minutes by minute), counted by the
   * broker as messages change (no scan), with the next occurrences of the
   * topic's schedules counted apart. Needs `consume` on the topic.
   */
  async dueForecast(topic: string, options: DueForecastOptions & CallOptions = {}): Promise<DueForecast> {
    checkOptions('dueForecast options', options, OPTION_NAMES.dueForecast);
    const request = forecastRequest(topic, options, Date.now());
    const res = await this.call(
      'dueForecast',
      ({ stubs, metadata, options: o }) =>
        unary<pb.GetDueForecastResponse>((cb) => stubs.broker.getDueForecast(request, metadata, o, cb)),
      options,
      OPTION_NAMES.dueForecast,
    );
    return forecastFromWire(res);
  }

  /** Every page of {@link FermataClient.listMessages}, fetched as you iterate. */
  async *listMessagePages(
    topic: string,
    options: ListMessagesOptions & CallOptions = {},
  ): AsyncGenerator<MessagePage> {
    let pageToken = options.pageToken;
    do {
      const page = await this.listMessages(topic, { ...options, pageToken });
      yield page;
      pageToken = page.nextPageToken;
    } while (pageToken !== undefined);
  }

  /** Every message of {@link FermataClient.listMessages}, one by one, fetching pages as you iterate. */
  async *iterateMessages(
    topic: string,
    options: ListMessagesOptions & CallOptions = {},
  ): AsyncGenerator<ListedMessage> {
    for await (const page of this.listMessagePages(topic, options)) yield* page.messages;
  }

  /**
   * Moves dead letters of `topic` (messages of its dead-letter topic, default
   * `<topic>.dlq`) back into it: each a new message due now with no attempt
   * counted, to the group it was dead-lettered from, and gone from the
   * dead-letter topic. `ids` (bigints or decimal strings, at most the server's
   * `limits.maxIdsPerCommand` per call) answer one result each; `all` moves
   * every dead letter of the topic, in batches, and answers those moved.
   * Needs `admin` on the topic.
   */
  async redrive(
    topic: string,
    which: { ids: readonly (bigint | string)[] } | { all: true },
    options?: CallOptions,
  ): Promise<RedriveResult[]> {
    checkOptions('redrive', which, ['ids', 'all']);
    if ('ids' in which) {
      if (!Array.isArray(which.ids)) throw new TypeError('redrive ids must be an array of ids');
      const ids = which.ids.map((id, i) => toUint64(parseId(id, `ids[${i}]`)));
      const res = await this.call(
        'redrive',
        ({ stubs, metadata, options: o }) =>
          unary<pb.RedriveResponse>((cb) => stubs.broker.redrive({ topic, ids }, metadata, o, cb)),
        options,
      );
      return res.results.map(redriveFromWire);
    }
    if (which.all !== true) throw new TypeError('redrive takes { ids } or { all: true }');
    const out: RedriveResult[] = [];
    let pageToken: Uint8Array = new Uint8Array(0);
    do {
      const request = { topic, all: true, pageToken };
      const res = await this.call(
        'redrive',
        ({ stubs, metadata, options: o }) =>
          unary<pb.RedriveResponse>((cb) => stubs.broker.redrive(request, metadata, o, cb)),
        options,
      );
      out.push(...res.results.map(redriveFromWire));
      pageToken = res.nextPageToken ?? new Uint8Array(0);
    } while (pageToken.length > 0);
    return out;
  }

  // ---- recurring schedules ----

  /**
   * Creates the schedule `name` in `topic`, or replaces its definition. Its
   * occurrences become messages of the topic (docs/schedules.md). Writes need
   * `publish` on the topic.
   */
  async upsertSchedule(
    topic: string,
    name: string,
    definition: ScheduleDefinition,
    options?: CallOptions,
  ): Promise<{ schedule: RecurringSchedule; created: boolean }> {
    checkOptions('upsertSchedule definition', definition, OPTION_NAMES.schedule);
    const request = { schedule: definitionToWire(topic, name, definition) };
    const res = await this.call(
      'upsertSchedule',
      ({ stubs, metadata, options: o }) =>
        unary<pb.UpsertScheduleResponse>((cb) => stubs.schedules.upsertSchedule(request, metadata, o, cb)),
      options,
    );
    return { schedule: scheduleFromWire(res.schedule), created: res.created };
  }

  /**
   * Creates or replaces many schedules in one request and one Raft entry (at
   * most the server's maxBatchMessages, 1,000 by default), all or none: a bad
   * definition or a limit refuses the whole call, its error naming
   * `schedules[i].<field>`. Results in the order given, each with its next fire time.
   */
  async upsertSchedules(
    schedules: readonly { topic: string; name: string; definition: ScheduleDefinition }[],
    options?: CallOptions,
  ): Promise<{ schedule: RecurringSchedule; created: boolean }[]> {
    schedules.forEach((s, i) => {
      checkOptions(`upsertSchedules schedules[${i}]`, s, ['topic', 'name', 'definition']);
      checkOptions(`upsertSchedules schedules[${i}].definition`, s.definition, OPTION_NAMES.schedule);
    });
    const request = { schedules: schedules.map((s) => definitionToWire(s.topic, s.name, s.definition)) };
    const res = await this.call(
      'upsertSchedules',
      ({ stubs, metadata, options: o }) =>
        unary<pb.UpsertSchedulesResponse>((cb) => stubs.schedules.upsertSchedules(request, metadata, o, cb)),
      options,
    );
    return (res.results ?? []).map((r) => ({
      schedule: scheduleFromWire(r.schedule),
      created: r.created === true,
    }));
  }

  /** One schedule with its next `next` fire times (default 5, at most 100); NotFoundError when absent. */
  async getSchedule(
    topic: string,
    name: string,
    next = 5,
    options?: CallOptions,
  ): Promise<RecurringSchedule> {
    const res = await this.call(
      'getSchedule',
      ({ stubs, metadata, options: o }) =>
        unary<pb.GetScheduleResponse>((cb) =>
          stubs.schedules.getSchedule({ topic, name, next }, metadata, o, cb),
        ),
      options,
    );
    return scheduleFromWire(res.schedule);
  }

  /** The schedules of a topic in name order (a page after `afterName`), each with its next fire times. */
  async listSchedules(
    topic: string,
    options: { afterName?: string; limit?: number; next?: number } & CallOptions = {},
  ): Promise<RecurringSchedule[]> {
    checkOptions('listSchedules options', options, OPTION_NAMES.listSchedules);
    const request = {
      topic,
      afterName: options.afterName ?? '',
      limit: options.limit ?? 0,
      next: options.next ?? 1,
    };
    const res = await this.call(
      'listSchedules',
      ({ stubs, metadata, options: o }) =>
        unary<pb.ListSchedulesResponse>((cb) => stubs.schedules.listSchedules(request, metadata, o, cb)),
      options,
      OPTION_NAMES.listSchedules,
    );
    return res.schedules.map(scheduleFromWire);
  }

  /** Stops a schedule firing: `done`, `unchanged` (already paused) or `not-found`. */
  pauseSchedule(topic: string, name: string, options?: CallOptions): Promise<ScheduleStatus> {
    return this.scheduleStatus('pauseSchedule', topic, name, options);
  }

  /** Resumes a paused schedule from now (what fell due while paused does not fire). */
  resumeSchedule(topic: string, name: string, options?: CallOptions): Promise<ScheduleStatus> {
    return this.scheduleStatus('resumeSchedule', topic, name, options);
  }

  /** Removes a schedule; messages already made from it stay. */
  deleteSchedule(topic: string, name: string, options?: CallOptions): Promise<ScheduleStatus> {
    return this.scheduleStatus('deleteSchedule', topic, name, options);
  }

  /** Publishes one message of the schedule now, outside its occurrences. */
  async triggerSchedule(
    topic: string,
    name: string,
    options?: CallOptions,
  ): Promise<{ status: ScheduleStatus; id: bigint; dueAtMs: number }> {
    const res = await this.call(
      'triggerSchedule',
      ({ stubs, metadata, options: o }) =>
        unary<pb.TriggerScheduleResponse>((cb) =>
          stubs.schedules.triggerSchedule({ topic, name }, metadata, o, cb),
        ),
      options,
    );
    return {
      status: scheduleStatusFromWire(res.status),
      id: toBigInt(res.id),
      dueAtMs: toSafeNumber(res.dueAtMs, 'due_at_ms'),
    };
  }

  private async scheduleStatus(
    method: 'pauseSchedule' | 'resumeSchedule' | 'deleteSchedule',
    topic: string,
    name: string,
    options?: CallOptions,
  ): Promise<ScheduleStatus> {
    const res = await this.call(
      method,
      ({ stubs, metadata, options: o }) =>
        unary<pb.ScheduleStatusResponse>((cb) => stubs.schedules[method]({ topic, name }, metadata, o, cb)),
      options,
    );
    return scheduleStatusFromWire(res.status);
  }

  // ---- topics and groups ----

  /** Creates a topic (with its `default` group). Omitted settings take the server's defaults. */
  async createTopic(name: string, settings: TopicSettings = {}, options?: CallOptions): Promise<Topic> {
    checkOptions('createTopic settings', settings, OPTION_NAMES.topicSettings);
    const request = { name, settings: settingsToWire(settings) };
    const res = await this.call(
      'createTopic',
      ({ stubs, metadata, options: o }) =>
        unary<pb.CreateTopicResponse>((cb) => stubs.admin.createTopic(request, metadata, o, cb)),
      options,
    );
    return topicFromWire(res.topic);
  }

  /** Changes exactly the settings given. */
  async updateTopic(name: string, settings: TopicSettings, options?: CallOptions): Promise<Topic> {
    checkOptions('updateTopic settings', settings, OPTION_NAMES.topicSettings);
    const request = { name, settings: settingsToWire(settings), updateMask: updateMask(settings) };
    const res = await this.call(
      'updateTopic',
      ({ stubs, metadata, options: o }) =>
        unary<pb.UpdateTopicResponse>((cb) => stubs.admin.updateTopic(request, metadata, o, cb)),
      options,
    );
    return topicFromWire(res.topic);
  }

  /** Deletes a topic with its messages; resolves with how many messages were removed. */
  async deleteTopic(name: string, options?: CallOptions): Promise<bigint> {
    const res = await this.call(
      'deleteTopic',
      ({ stubs, metadata, options: o }) =>
        unary<pb.DeleteTopicResponse>((cb) => stubs.admin.deleteTopic({ name }, metadata, o, cb)),
      options,
    );
    return toBigInt(res.removedMessages);
  }

  /** Every topic. */
  async listTopics(options?: CallOptions): Promise<Topic[]> {
    const res = await this.call(
      'listTopics',
      ({ stubs, metadata, options: o }) =>
        unary<pb.ListTopicsResponse>((cb) => stubs.admin.listTopics({}, metadata, o, cb)),
      options,
    );
    return res.topics.map(topicFromWire);
  }

  /** Pending, in-flight and dead-lettered counts and the next due time, per group. */
  async topicStats(topic: string, options?: CallOptions): Promise<TopicStats> {
    const res = await this.call(
      'topicStats',
      ({ stubs, metadata, options: o }) =>
        unary<pb.GetTopicStatsResponse>((cb) => stubs.admin.getTopicStats({ topic }, metadata, o, cb)),
      options,
    );
    return statsFromWire(res);
  }

  /** Adds a consumer group; it receives every message published from now on. Omitted settings are unset. */
  async createGroup(
    topic: string,
    group: string,
    settings: GroupSettings = {},
    options?: CallOptions,
  ): Promise<Topic> {
    checkOptions('createGroup settings', settings, OPTION_NAMES.groupSettings);
    if (settings.push) checkOptions('createGroup settings.push', settings.push, OPTION_NAMES.pushSettings);
    const request = { topic, group, settings: groupSettingsToWire(settings) };
    const res = await this.call(
      'createGroup',
      ({ stubs, metadata, options: o }) =>
        unary<pb.CreateGroupResponse>((cb) => stubs.admin.createGroup(request, metadata, o, cb)),
      options,
    );
    return topicFromWire(res.topic);
  }

  /** Changes exactly the group settings given (`paused: true` pauses the group, `false` resumes it). */
  async updateGroup(
    topic: string,
    group: string,
    settings: GroupSettings,
    options?: CallOptions,
  ): Promise<Topic> {
    checkOptions('updateGroup settings', settings, OPTION_NAMES.groupSettings);
    if (settings.push) checkOptions('updateGroup settings.push', settings.push, OPTION_NAMES.pushSettings);
    const request = {
      topic,
      group,
      settings: groupSettingsToWire(settings),
      updateMask: groupUpdateMask(settings),
    };
    const res = await this.call(
      'updateGroup',
      ({ stubs, metadata, options: o }) =>
        unary<pb.UpdateGroupResponse>((cb) => stubs.admin.updateGroup(request, metadata, o, cb)),
      options,
    );
    return topicFromWire(res.topic);
  }

  /**
   * Has the leader send a push group's endpoint a signed test request (a
   * JSON body `{"test":true,"topic":...,"group":...}` with `Fermata-Test: 1`;
   * no message is leased) and resolves with what the endpoint answered.
   */
  async testPush(topic: string, group: string, options?: CallOptions): Promise<PushTestResult> {
    const res = await this.call(
      'testPush',
      ({ stubs, metadata, options: o }) =>
        unary<pb.TestPushResponse>((cb) => stubs.admin.testPush({ topic, group }, metadata, o, cb)),
      options,
    );
    return {
      status: res.status,
      body: res.body,
      latencyMs: toSafeNumber(res.latencyMs, 'latency_ms'),
      error: res.error,
      signature: res.signature,
    };
  }

  /** Removes a group and its copies of the messages; resolves with how many were removed. */
  async deleteGroup(topic: string, group: string, options?: CallOptions): Promise<bigint> {
    const res = await this.call(
      'deleteGroup',
      ({ stubs, metadata, options: o }) =>
        unary<pb.DeleteGroupResponse>((cb) => stubs.admin.deleteGroup({ topic, group }, metadata, o, cb)),
      options,
    );
    return toBigInt(res.removedMessages);
  }

  // ---- cluster ----

  /** Leader, term, commit and applied index, and members with role and lag (as the leader sees them). */
  async clusterInfo(options?: CallOptions): Promise<ClusterInfo> {
    const res = await this.call(
      'clusterInfo',
      ({ stubs, metadata, options: o }) =>
        unary<pb.GetClusterInfoResponse>((cb) => stubs.cluster.getClusterInfo({}, metadata, o, cb)),
      options,
    );
    return clusterInfoFromWire(res);
  }

  /** Adds a node: as a learner, caught up, then promoted to voter (unless `learnerOnly`). */
  async addMember(id: string, member: AddMemberOptions, options?: CallOptions): Promise<Member[]> {
    checkOptions('addMember member', member, OPTION_NAMES.addMember);
    const request = {
      id,
      peerAddress: member.peerAddress,
      address: member.address,
      learnerOnly: member.learnerOnly ?? false,
    };
    const res = await this.call(
      'addMember',
      ({ stubs, metadata, options: o }) =>
        unary<pb.AddMemberResponse>((cb) => stubs.cluster.addMember(request, metadata, o, cb)),
      options,
    );
    return res.members.map(memberFromWire);
  }

  /** Removes a node from the cluster. */
  async removeMember(id: string, options?: CallOptions): Promise<Member[]> {
    const res = await this.call(
      'removeMember',
      ({ stubs, metadata, options: o }) =>
        unary<pb.RemoveMemberResponse>((cb) => stubs.cluster.removeMember({ id }, metadata, o, cb)),
      options,
    );
    return res.members.map(memberFromWire);
  }

  /** Hands leadership to `toId` (default: the most caught-up follower); resolves with the new leader's id. */
  async transferLeadership(toId = '', options?: CallOptions): Promise<string> {
    const res = await this.call(
      'transferLeadership',
      ({ stubs, metadata, options: o }) =>
        unary<pb.TransferLeadershipResponse>((cb) =>
          stubs.cluster.transferLeadership({ toId }, metadata, o, cb),
        ),
      options,
    );
    this.conn.forgetLeader();
    return res.leaderId;
  }

  // ---- backups ----

  /**
   * Starts a backup on the leader: a consistent snapshot of every topic,
   * message, lease and schedule, holding every write answered before the call
   * (needs `admin` on `*`). Resolves once the leader has started it; read its
   * data with `pieces()`, which checks the leader's SHA-256 at the end. The
   * CLI's `fermata backup --out FILE` writes it to a file.
   */
  backup(options?: CallOptions): Promise<BackupStream> {
    return openBackup(this.conn, options?.deadlineMs);
  }

  // ---- lifecycle ----

  /**
   * Closes subscriptions (draining their handlers) and producers (flushing
   * them), then the channels. Calls still waiting fail with ClosedError.
   */
  async close(): Promise<void> {
    await Promise.allSettled([
      ...[...this.subscriptions].map((s) => s.close()),
      ...[...this.producers].map((p) => p.close()),
    ]);
    this.conn.close();
  }
}
