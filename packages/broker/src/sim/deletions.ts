/**
 * A large topic deleted during the chaos: a client fills `sim.big` with
 * BIG_MESSAGES messages (publishes of BIG_BATCH, keyed and retried like every
 * publish), a consumer takes its messages, and once the fill is answered a
 * client deletes the topic (retrying until answered). Its purge runs in steps
 * of PURGE_STEP_RECORDS (the nodes' deletion.maxRecordsPerStep), so it spans
 * many log entries, crashes and leader changes. Rules (checker.ts):
 * `deleted-topic-silent` (no delivery of its messages after the deletion was
 * answered, except by a former leader that has not learned it is deposed, within
 * STALE_LEADER_MS) and `deletion-completes` (at the end no deletion is under way on
 * the final leader: every step was proposed and applied, whatever leaders
 * came and went); the topic `sim`'s deliveries are held to the usual rules
 * meanwhile.
 */
import type { NodeId } from '@fermata/raft';
import { publish } from '../server/grpc-broker.js';
import { NotFoundError } from '../state/model/errors.js';
import type { Violation } from './checker.js';
import { type ClientWorld, pickNode, timed } from './clients.js';
import { SIM_ELECTION_TICKS, SIM_TICK_MS, type SimBrokerNode } from './sim-node.js';

export const BIG_TOPIC = 'sim.big';
export const BIG_MESSAGES = 200;
/**
 * How long after the deletion's answer a former leader may still hand its consumers
 * messages it leased before: a leader cut off from the others steps down at the end
 * of the first election timeout in which it heard from no majority (check-quorum), so
 * at most two election timeouts after it was cut off, which was before the new leader
 * that answered the deletion was elected. Nothing may be sent by a node that applied
 * the deletion (docs/api.md, DeleteTopic).
 */
const STALE_LEADER_MS = 2 * SIM_ELECTION_TICKS * SIM_TICK_MS;
/** Under 64 messages a publish, so that apply never yields on its wall-clock slice (README.md). */
const BIG_BATCH = 40;

export interface DeletionRecord {
  /** When the fill's last publish was answered (or given up). */
  filledAtMs?: number;
  invokedAtMs?: number;
  /** When the first delete call was answered OK: from then on nothing of the topic is delivered. */
  answeredAtMs?: number;
  published: number;
}

/** Fills the big topic, then deletes it at a random moment of the chaos (from `earliestMs`). */
export function runDeletion(
  w: ClientWorld,
  leader: () => SimBrokerNode | undefined,
  record: DeletionRecord,
  deleteAtMs: number,
): void {
  let left = BIG_MESSAGES / BIG_BATCH;
  const doneOne = (): void => {
    if (--left > 0) return;
    record.filledAtMs = w.sched.nowMs;
    w.history.note(w.sched.nowMs, `${BIG_TOPIC} filled: ${record.published} messages`);
    w.sched.at(
      Math.max(0, deleteAtMs - w.sched.nowMs),
      () => `delete ${BIG_TOPIC}`,
      () => deleteTopic(w, leader, record),
    );
  };
  for (let b = 0; b < BIG_MESSAGES / BIG_BATCH; b++) {
    const messages = Array.from({ length: BIG_BATCH }, (_, i) => {
      const key = `big${b * BIG_BATCH + i}`;
      return { topic: BIG_TOPIC, payload: Buffer.from(key), key, delayMs: w.rng.int(0, 3_000) };
    });
    const attempt = (tries: number, hint: NodeId | undefined): void => {
      const node = pickNode(w, hint ?? leader()?.id);
      // Given up: the topic gets fewer messages (each batch is tried for ~10 s of faults).
      if (!node || tries === 0) {
        doneOne();
        return;
      }
      timed(
        w,
        () => publish(node.ctx, messages, `big-batch-${b}`),
        (results) => {
          record.published += results.length;
          doneOne();
        },
        () =>
          w.sched.at(
            w.rng.int(50, 300),
            () => `retry big batch ${b}`,
            () => attempt(tries - 1, undefined),
          ),
      );
    };
    w.sched.at(
      200 + b * 30,
      () => `fill ${BIG_TOPIC} ${b}`,
      () => attempt(50, undefined),
    );
  }
}

function deleteTopic(w: ClientWorld, leader: () => SimBrokerNode | undefined, record: DeletionRecord): void {
  const attempt = (): void => {
    const node = pickNode(w, leader()?.id);
    const retry = (): void => {
      w.sched.at(300, () => `retry delete ${BIG_TOPIC}`, attempt);
    };
    if (!node) {
      retry();
      return;
    }
    record.invokedAtMs ??= w.sched.nowMs;
    w.history.note(w.sched.nowMs, `delete ${BIG_TOPIC} on ${node.id}`);
    timed(
      w,
      () => node.ctx.proposer.run({ kind: 'delete-topic', name: BIG_TOPIC }),
      (r) => {
        if (r.kind !== 'delete-topic') {
          retry();
          return;
        }
        record.answeredAtMs ??= w.sched.nowMs;
        w.history.note(
          w.sched.nowMs,
          `delete ${BIG_TOPIC} answered on ${node.id}: ${r.removedMessages} messages`,
        );
      },
      (e) => {
        // No such topic (the fill never got through, or a retry of an applied delete whose
        // purge ended): an answer too; nothing of it is left to deliver.
        if (e instanceof NotFoundError) {
          record.answeredAtMs ??= w.sched.nowMs;
          w.history.note(w.sched.nowMs, `delete ${BIG_TOPIC} answered on ${node.id}: not found`);
          return;
        }
        retry();
      },
    );
  };
  attempt();
}

/**
 * The rules of the deletion: `deleted-topic-silent` over the deliveries,
 * `deletion-completes` over the final leader's state.
 */
export async function checkDeletion(
  w: ClientWorld,
  l: SimBrokerNode,
  record: DeletionRecord,
): Promise<Violation | undefined> {
  const answered = record.answeredAtMs;
  if (answered === undefined) {
    return record.filledAtMs === undefined
      ? undefined
      : { rule: 'deletion-completes', message: `${BIG_TOPIC}: the delete was never answered` };
  }
  const late = w.history.deliveries.find(
    (d) =>
      d.topic === BIG_TOPIC &&
      d.atMs > answered &&
      (d.topicDeletingOnSender || d.atMs > answered + STALE_LEADER_MS),
  );
  if (late) {
    return {
      rule: 'deleted-topic-silent',
      id: late.id,
      message: `${BIG_TOPIC} message ${late.id} delivered at ${late.atMs} on ${late.node}, after the deletion was answered at ${answered}${late.topicDeletingOnSender ? ` (${late.node} had applied it)` : ''}`,
    };
  }
  // Gone, or (a publish retried from before the deletion and applied after it completed)
  // created anew: either way no deletion is left under way.
  const topic = await l.ctx.reader.getTopic(BIG_TOPIC);
  if (topic?.deleting || l.ctx.sm.deleting.size > 0) {
    const stats = topic ? await l.ctx.reader.topicStats(BIG_TOPIC) : undefined;
    return {
      rule: 'deletion-completes',
      message: `${BIG_TOPIC}'s deletion still under way at the end on ${l.id}: ${JSON.stringify(stats?.deletions ?? l.ctx.sm.deleting.list())}`,
    };
  }
  return undefined;
}
