import { invariant } from '@fermata/base';
import type { BrokerHandlers } from '@fermata/protocol';
import {
  int64FromSafe,
  numberAsInt64,
  type pb,
  toBigInt,
  toUint64,
  uint64ForWire,
  v1,
} from '@fermata/protocol';
import { headersOf } from '../leader/dead-letter-headers.js';
import { type PublishInput, publishInputFromProto, type Target } from '../state/commands/commands.js';
import type { PublishResultItem } from '../state/commands/results.js';
import { NotFoundError, ValidationError } from '../state/model/errors.js';
import type { BodyRec } from '../state/model/records.js';
import type { MessageStateName } from '../state/read/reader.js';
import { handleConsume } from './consume-stream.js';
import {
  callerName,
  errorStatus,
  field,
  linearizable,
  requireLeader,
  type ServerContext,
  unary,
} from './context.js';
import { checkDecoded } from './decode-guard.js';
import { RefusedByConfigError } from './errors.js';
import { redrive } from './redrive.js';
import { ack, extend, nack, settleOutcome } from './settle.js';
import { checkPublishTopics } from './topic-check.js';

const i64 = int64FromSafe;

/** Requests one PublishStream may have unanswered before the server stops reading it. */
export const MAX_PUBLISH_STREAM_UNANSWERED = 64;

/** Converts a client's messages, naming the field of any bad 64-bit value. */
export function publishInputs(messages: readonly pb.PublishMessage.$Properties[]): PublishInput[] {
  return messages.map((m, i) => field(`messages[${i}].`, () => publishInputFromProto(m)));
}

function checkDurability(ctx: ServerContext, durability: number | null | undefined): void {
  if (durability === v1.Durability.DURABILITY_LEADER && !ctx.config.limits.allowLeaderDurability) {
    throw new RefusedByConfigError(
      'durability: DURABILITY_LEADER is not allowed by this server (limits.allowLeaderDurability is false)',
    );
  }
}

/**
 * Publishes on the leader. The dispatcher learns of the new due times from the
 * state machine (`onDue`, wired in broker-server.ts), for every applied entry.
 */
export async function publish(
  ctx: ServerContext,
  messages: readonly PublishInput[],
  idempotencyKey = '',
): Promise<readonly PublishResultItem[]> {
  requireLeader(ctx);
  const checking = checkPublishTopics(ctx, messages, (i) => `messages[${i}].topic`);
  if (checking) await checking;
  const results = await ctx.proposer.publish(messages, idempotencyKey);
  ctx.metrics.publishes.inc(messages.length);
  return results;
}

/**
 * Takes a request's messages from its token's publish rate (token-limits.ts),
 * first thing: a token past its rate is refused before its messages are even
 * converted, so its refusals cost the others as little as can be.
 */
function takeRate(ctx: ServerContext, token: string, messages: number): void {
  if (token !== '') ctx.tokenLimits?.takePublish(token, messages);
}

function publishResults(results: readonly PublishResultItem[]): pb.PublishResult.$Properties[] {
  // Plain-number int64s: one result per published message, no Long per field.
  return results.map((r) => ({
    id: uint64ForWire(r.id),
    deduplicated: r.deduplicated,
    dueAtMs: numberAsInt64(r.dueAtMs),
  }));
}

function target(m: { target?: 'id' | 'key'; id?: pb.CancelRequest['id']; key?: string | null }): Target {
  if (m.target === 'id') return { id: toBigInt(m.id) };
  if (m.target === 'key') {
    if (!m.key) throw new ValidationError('key', 'must not be empty');
    return { key: m.key };
  }
  throw new ValidationError('target', 'name the message by id or key');
}

const STATE: Record<MessageStateName, number> = {
  pending: v1.MessageState.MESSAGE_STATE_PENDING,
  'in-flight': v1.MessageState.MESSAGE_STATE_IN_FLIGHT,
  done: v1.MessageState.MESSAGE_STATE_DONE,
  'dead-lettered': v1.MessageState.MESSAGE_STATE_DEAD_LETTERED,
};

function messageInfo(b: BodyRec): pb.MessageInfo.$Properties {
  return {
    id: toUint64(b.id),
    topic: b.topic,
    payload: b.payload,
    headers: { ...headersOf(b) },
    key: b.key,
    enqueuedAtMs: i64(b.enqueuedAtMs),
    dueAtMs: i64(b.dueAtMs),
    expireAtMs: i64(b.expireAtMs),
    orderingKey: b.orderingKey,
    deliverBeforeMs: i64(b.deliverBeforeMs),
  };
}

const CANCEL = {
  cancelled: v1.CancelStatus.CANCEL_STATUS_CANCELLED,
  'not-found': v1.CancelStatus.CANCEL_STATUS_NOT_FOUND,
  'in-flight': v1.CancelStatus.CANCEL_STATUS_IN_FLIGHT,
  'already-done': v1.CancelStatus.CANCEL_STATUS_ALREADY_DONE,
} as const;

const RESCHEDULE = {
  rescheduled: v1.RescheduleStatus.RESCHEDULE_STATUS_RESCHEDULED,
  'not-found': v1.RescheduleStatus.RESCHEDULE_STATUS_NOT_FOUND,
  'in-flight': v1.RescheduleStatus.RESCHEDULE_STATUS_IN_FLIGHT,
  'already-done': v1.RescheduleStatus.RESCHEDULE_STATUS_ALREADY_DONE,
} as const;

export function brokerHandlers(ctx: ServerContext): BrokerHandlers {
  return {
    publish: unary(ctx, async (req, call) => {
      requireLeader(ctx);
      takeRate(ctx, callerName(ctx, call.metadata), req.messages?.length ?? 0);
      checkDurability(ctx, req.durability);
      const results = await publish(ctx, publishInputs(req.messages), req.idempotencyKey ?? '');
      return { results: publishResults(results) };
    }),

    publishStream: (call) => {
      // Responses go out in request order even though batches commit concurrently.
      let chain = Promise.resolve();
      // Backpressure: past this many unanswered requests the stream stops being read, so a
      // client that pipelines without bound is held by HTTP/2 flow control, not our memory
      // (beyond the stream's receive window, CLIENT_PORT_STREAM_WINDOW_BYTES).
      let unanswered = 0;
      const token = callerName(ctx, call.metadata);
      call.on('data', (req: pb.PublishStreamRequest) => {
        if (++unanswered >= MAX_PUBLISH_STREAM_UNANSWERED) call.pause();
        const sequence = req.sequence;
        const work = (async (): Promise<pb.PublishStreamResponse.$Properties> => {
          try {
            checkDecoded(req);
            requireLeader(ctx);
            takeRate(ctx, token, req.messages?.length ?? 0);
            checkDurability(ctx, req.durability);
            const results = await publish(ctx, publishInputs(req.messages), req.idempotencyKey ?? '');
            return { sequence, results: publishResults(results) };
          } catch (err) {
            return { sequence, error: errorStatus(ctx, err) };
          }
        })();
        chain = chain.then(async () => {
          const res = await work;
          if (!call.writableEnded && !call.destroyed) call.write(res);
          if (--unanswered < MAX_PUBLISH_STREAM_UNANSWERED && call.isPaused()) call.resume();
        });
      });
      call.on('end', () => {
        void chain.then(() => call.end());
      });
      call.on('error', () => undefined);
    },

    consume: (call) => handleConsume(ctx, call),

    ack: unary(ctx, async (req) => ({ outcomes: (await ack(ctx, req.tags)).map(settleOutcome) })),

    nack: unary(ctx, async (req) => {
      const delayMs = field('', () => Number(toBigInt(req.delayMs)));
      return { outcome: settleOutcome(await nack(ctx, req.tag, delayMs, req.error ?? '')) };
    }),

    extend: unary(ctx, async (req) => {
      const leaseMs = field('', () => Number(toBigInt(req.leaseMs)));
      return { outcome: settleOutcome(await extend(ctx, req.tag, leaseMs)) };
    }),

    cancel: unary(ctx, async (req) => {
      requireLeader(ctx);
      if (!req.topic) throw new ValidationError('topic', 'must not be empty');
      const r = await ctx.proposer.run({ kind: 'cancel', topic: req.topic, target: target(req) });
      invariant(r.kind === 'cancel', () => `cancel answered with ${r.kind}`);
      return { status: CANCEL[r.result.status], id: toUint64(r.result.id ?? 0n) };
    }),

    reschedule: unary(ctx, async (req) => {
      requireLeader(ctx);
      if (!req.topic) throw new ValidationError('topic', 'must not be empty');
      const schedule = field('', () =>
        req.schedule === 'delayMs'
          ? { delayMs: Number(toBigInt(req.delayMs)) }
          : req.schedule === 'deliverAtMs'
            ? { deliverAtMs: Number(toBigInt(req.deliverAtMs)) }
            : {},
      );
      const r = await ctx.proposer.run({
        kind: 'reschedule',
        topic: req.topic,
        target: target(req),
        ...schedule,
      });
      invariant(r.kind === 'reschedule', () => `reschedule answered with ${r.kind}`);
      return {
        status: RESCHEDULE[r.result.status],
        dueAtMs: i64(r.result.dueAtMs ?? 0),
        id: toUint64(r.result.id ?? 0n),
      };
    }),

    getMessage: unary(ctx, async (req) => {
      await linearizable(ctx);
      if (!req.topic) throw new ValidationError('topic', 'must not be empty');
      const view = await ctx.reader.getMessage(req.topic, target(req), ctx.proposer.nowMs());
      if (!view) {
        throw new NotFoundError(
          'message',
          req.topic,
          undefined,
          `message not found in topic "${req.topic}" (unknown, or it has ended)`,
        );
      }
      return {
        message: messageInfo(view.message),
        groups: view.groups.map((g) => ({
          group: g.group,
          state: STATE[g.state],
          dueAtMs: i64(g.dueAtMs),
          attempt: g.attempt,
        })),
      };
    }),

    redrive: unary(ctx, (req) => redrive(ctx, req)),

    listMessages: unary(ctx, async (req) => {
      await linearizable(ctx);
      if (!req.topic) throw new ValidationError('topic', 'must not be empty');
      const range = field('', () => ({
        fromDueMs: Number(toBigInt(req.fromDueMs)),
        toDueMs: Number(toBigInt(req.toDueMs)),
      }));
      if (range.fromDueMs < 0) throw new ValidationError('from_due_ms', 'must be >= 0');
      if (range.toDueMs < 0) throw new ValidationError('to_due_ms', 'must be >= 0');
      const page = await ctx.reader.listMessages(
        req.topic,
        { group: req.group, ...range, limit: req.limit, pageToken: req.pageToken },
        ctx.proposer.nowMs(),
      );
      return {
        messages: page.items
          .filter((it) => it.message)
          .map((it) => ({
            message: messageInfo(it.message!),
            state: STATE[it.state],
            dueAtMs: i64(it.dueAtMs),
            attempt: it.entry.attempt,
            tag: it.tag,
          })),
        nextPageToken: page.nextPageToken ?? new Uint8Array(0),
      };
    }),

    getDueForecast: unary(ctx, async (req) => {
      await linearizable(ctx);
      if (!req.topic) throw new ValidationError('topic', 'must not be empty');
      const f = await ctx.reader.forecast({
        topic: req.topic,
        group: req.group ?? '',
        fromMs: Number(toBigInt(req.fromMs)),
        toMs: Number(toBigInt(req.toMs)),
        bucketMs: Number(toBigInt(req.bucketMs)),
      });
      return {
        buckets: f.buckets.map((b) => ({
          startMs: i64(b.startMs),
          endMs: i64(b.endMs),
          count: toUint64(BigInt(b.count)),
          scheduled: toUint64(BigInt(b.scheduled)),
        })),
        pending: toUint64(BigInt(f.pending)),
        inFlight: toUint64(BigInt(f.inFlight)),
        complete: f.complete,
        schedulesTruncated: f.schedulesTruncated,
      };
    }),
  };
}
