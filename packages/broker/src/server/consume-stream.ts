import { int64FromSafe, type pb, toBigInt } from '@fermata/protocol';
import type * as grpc from '@grpc/grpc-js';
import { DEFAULT_GROUP } from '../keys.js';
import { type Consumer, type DeliverySink, heldAheadSchedule } from '../leader/dispatcher/consumer.js';
import { emptySlots } from '../leader/dispatcher/consumer-registry.js';
import { leaderNotReady } from '../leader/proposer.js';
import { pushGroupConflict } from '../leader/push/push-endpoint.js';
import {
  validateGroupName,
  validateLeaseMs,
  validateTag,
  validateTopicName,
} from '../state/commands/validation.js';
import { deletionConflict, LimitError, ValidationError } from '../state/model/errors.js';
import { callerName, errorStatus, field, grpcError, requireLeader, type ServerContext } from './context.js';
import { checkDecoded } from './decode-guard.js';
import { ack, extend, nack, settleOutcome } from './settle.js';
import { requireGroup, topicToConsume } from './topic-check.js';

/**
 * Most payload bytes in one stream message of deliveries: a batch is split
 * beyond it, so that no message passes gRPC's default 4 MiB receive limit of
 * a client (one delivery of limits.maxPayloadBytes goes alone).
 */
export const MAX_DELIVERY_MESSAGE_PAYLOAD_BYTES = 2 * 1024 * 1024;

/** Splits deliveries into runs of at most `maxBytes` of payload (a larger one alone). */
export function splitByPayload(
  deliveries: pb.Delivery.$Properties[],
  maxBytes: number,
): pb.Delivery.$Properties[][] {
  let total = 0;
  for (const d of deliveries) total += d.payload?.length ?? 0;
  if (total <= maxBytes) return [deliveries];
  const parts: pb.Delivery.$Properties[][] = [];
  let part: pb.Delivery.$Properties[] = [];
  let bytes = 0;
  for (const d of deliveries) {
    const n = d.payload?.length ?? 0;
    if (part.length > 0 && bytes + n > maxBytes) {
      parts.push(part);
      part = [];
      bytes = 0;
    }
    part.push(d);
    bytes += n;
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

/**
 * The leader pushes a push group's messages to its endpoint: a stream would
 * take a share of them. Judged from the applied settings as the state
 * machine holds them (`pushGroups`), which end the streams of a group at
 * the apply that makes it one: checked with no await before the stream is
 * added, a stream is either refused or ended, whatever the endpoint did.
 */
function refusePushGroup(ctx: ServerContext, topic: string, group: string): void {
  if (ctx.sm.pushGroups.has(topic, group)) throw pushGroupConflict(topic, group, 'subscribe.group');
}

/** Refuses a subscription to `group` of the topic record `t` as read: deleted, missing, or pushed to. */
function checkGroup(
  ctx: ServerContext,
  t: Awaited<ReturnType<typeof topicToConsume>>,
  topic: string,
  group: string,
): void {
  // A topic or group being deleted takes no subscription: its records are being removed.
  if (t.deleting || t.deletingGroups?.includes(group)) throw deletionConflict(topic, t.deleting ? '' : group);
  requireGroup(t, group, 'subscribe.group');
  refusePushGroup(ctx, topic, group);
}

type ConsumeCall = grpc.ServerDuplexStream<pb.ConsumeRequest, pb.ConsumeResponse.$Properties>;

/**
 * One Consume stream: `subscribe` first, then credit and settlements. The
 * server pushes at most `window` unacked deliveries (prefetch, changed by
 * `credit{n}`), counting those written and not yet read, so a consumer that
 * stops reading makes the leader hold at most that many.
 */
export function handleConsume(ctx: ServerContext, call: ConsumeCall): void {
  let consumer: Consumer | undefined;
  let subscribing = false;
  let ended = false;
  /** Gives back this stream's place under its token's limitStreams (set once subscribed). */
  let releaseStream: (() => void) | undefined;

  // Payload bytes of deliveries written and not yet sent: HTTP/2 holds them while the client does not read.
  let unsentBytes = 0;
  let streamClosed = false;
  const unsent = (bytes: number): void => {
    unsentBytes += bytes;
    ctx.metrics.consumeUnsentBytes.inc(bytes);
    ctx.consumeBuffer?.add(bytes);
  };
  const end = (error?: unknown): void => {
    if (ended) return;
    ended = true;
    releaseStream?.();
    if (consumer) ctx.dispatcher.removeConsumer(consumer);
    if (error !== undefined) call.emit('error', grpcError(ctx, error));
    else if (!call.writableEnded) call.end();
  };
  /** The HTTP/2 stream closed: whatever it still held is dropped with it. */
  const closed = (): void => {
    if (!streamClosed) unsent(-unsentBytes);
    streamClosed = true;
    end();
  };
  const write = (msg: pb.ConsumeResponse.$Properties, done?: () => void): boolean => {
    if (ended || call.writableEnded || call.destroyed) return true;
    return call.write(msg, done);
  };

  const sink: DeliverySink = {
    accepts: (pending, bytes) => ctx.consumeBuffer?.accepts(pending, bytes) ?? true,
    deliver: (deliveries, sent) => {
      const parts = splitByPayload(deliveries, MAX_DELIVERY_MESSAGE_PAYLOAD_BYTES);
      let left = parts.length;
      let room = true;
      for (const part of parts) {
        let bytes = 0;
        for (const d of part) bytes += d.payload?.length ?? 0;
        unsent(bytes);
        room = write(
          { deliveries: { deliveries: part, sentAtMs: int64FromSafe(ctx.proposer.nowMs()) } },
          () => {
            // Called once HTTP/2 took the message (never for a stream destroyed first).
            if (!streamClosed) unsent(-bytes);
            if (--left === 0) sent();
          },
        );
      }
      return room;
    },
    close: (error) => end(error),
  };
  call.on('drain', () => {
    if (consumer) ctx.dispatcher.drained(consumer);
  });

  const subscribe = async (sub: pb.Subscribe): Promise<void> => {
    if (consumer || subscribing) throw new ValidationError('subscribe', 'a stream subscribes once');
    subscribing = true;
    requireLeader(ctx);
    if (!ctx.dispatcher.isActive) throw leaderNotReady();
    const topic = sub.topic;
    const group = sub.group || DEFAULT_GROUP;
    const limits = ctx.sm.limits;
    validateTopicName(topic, limits, 'subscribe.topic');
    validateGroupName(group, limits, 'subscribe.group');
    const { defaultPrefetch, maxPrefetch } = ctx.config.dispatcher;
    const prefetch = Math.min(sub.prefetch || defaultPrefetch, maxPrefetch);
    let leaseMs = field('subscribe.', () => Number(toBigInt(sub.leaseMs)));
    if (leaseMs !== 0) validateLeaseMs(leaseMs, limits, 'subscribe.lease_ms');

    // Consuming never creates a topic or a group: a mistyped name is refused with the closest ones.
    let deletionsSeen = ctx.sm.deleting.started;
    const t = await topicToConsume(ctx, topic, 'subscribe.topic');
    checkGroup(ctx, t, topic, group);
    if (leaseMs === 0) leaseMs = t.settings.defaultLeaseMs || ctx.config.dispatcher.defaultLeaseMs;

    const queue = ctx.reader.queueHash(topic, group);
    if (ended) return;
    releaseStream = ctx.tokenLimits?.openStream(callerName(ctx, call.metadata));
    const max = ctx.config.limits.maxConsumersPerGroup;
    const count = ctx.dispatcher.consumerCount(queue);
    if (count >= max) throw new LimitError('maxConsumersPerGroup', max, count + 1, 'subscribe.group');
    if (ended) return;
    const held = sub.heldTags ?? [];
    const maxHeld = 2 * maxPrefetch;
    if (held.length > maxHeld)
      throw new LimitError(
        'maxHeldTags (2 x dispatcher.maxPrefetch)',
        maxHeld,
        held.length,
        'subscribe.held_tags',
      );
    held.forEach((t, i) => {
      validateTag(t, `subscribe.held_tags[${i}]`);
    });
    const c: Consumer = {
      id: ctx.dispatcher.newConsumerId(),
      consumerId: sub.consumerId ? toBigInt(sub.consumerId) : 0n,
      queue,
      topic,
      group,
      window: prefetch,
      leaseMs,
      holdsAhead: sub.holdsAhead === true,
      ...emptySlots(),
      ready: [],
      settles: { count: 0, previous: 0, sinceMs: ctx.proposer.nowMs() },
      early: heldAheadSchedule(),
      sink,
    };
    consumer = c;
    // The deliveries it still holds, and those the previous leader leased to it, are its own again.
    const plan =
      held.length > 0 || c.consumerId !== 0n ? await ctx.dispatcher.planTakeBack(c, held) : undefined;
    if (ended) return;
    // A deletion begun since the read (finished too, perhaps: then no set names it) ended the
    // streams its group had then: read the group again until no deletion began meanwhile.
    while (ctx.sm.deleting.started !== deletionsSeen) {
      deletionsSeen = ctx.sm.deleting.started;
      checkGroup(ctx, await topicToConsume(ctx, topic, 'subscribe.topic'), topic, group);
      if (ended) return;
    }
    // With no await before adding it: since the read, the group may have become a push group.
    refusePushGroup(ctx, topic, group);
    const released = ctx.dispatcher.addConsumer(c, plan);
    write({
      subscribed: { topic, group, prefetch, leaseMs: int64FromSafe(leaseMs), releasedTags: released },
    });
  };

  const onRequest = async (req: pb.ConsumeRequest): Promise<void> => {
    checkDecoded(req);
    switch (req.kind) {
      case 'subscribe':
        await subscribe(req.subscribe as pb.Subscribe);
        return;
      case 'credit': {
        if (!consumer) throw new ValidationError('credit', 'subscribe first');
        const n = req.credit?.n ?? 0;
        ctx.dispatcher.setWindow(consumer, Math.min(n, ctx.config.dispatcher.maxPrefetch));
        return;
      }
      case 'ack': {
        const requestId = req.ack!.requestId;
        try {
          const outcomes = await ack(ctx, req.ack!.tags ?? []);
          write({ result: { requestId, outcomes: outcomes.map(settleOutcome) } });
        } catch (err) {
          write({ result: { requestId, error: errorStatus(ctx, err) } });
        }
        return;
      }
      case 'nack': {
        const { tag, requestId } = req.nack as pb.StreamNack;
        try {
          const delayMs = field('nack.', () => Number(toBigInt(req.nack!.delayMs)));
          const outcome = await nack(ctx, tag, delayMs, req.nack!.error ?? '');
          write({ result: { requestId, outcomes: [settleOutcome(outcome)] } });
        } catch (err) {
          write({ result: { requestId, error: errorStatus(ctx, err) } });
        }
        return;
      }
      case 'extend': {
        const { tag, requestId } = req.extend as pb.StreamExtend;
        try {
          const leaseMs = field('extend.', () => Number(toBigInt(req.extend!.leaseMs)));
          write({ result: { requestId, outcomes: [settleOutcome(await extend(ctx, tag, leaseMs))] } });
        } catch (err) {
          write({ result: { requestId, error: errorStatus(ctx, err) } });
        }
        return;
      }
      default:
        throw new ValidationError('kind', 'a consume request is subscribe, credit, ack, nack or extend');
    }
  };

  call.on('data', (req: pb.ConsumeRequest) => {
    onRequest(req).catch((err: unknown) => end(err));
  });
  call.on('end', () => end());
  call.on('cancelled', closed);
  call.on('error', () => end());
  call.on('close', closed);
}
