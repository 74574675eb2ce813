import type { RaftNode } from '@fermata/raft';
import type { Dispatcher } from '../leader/dispatcher/dispatcher.js';
import type { Janitor } from '../leader/janitor.js';
import type { ScheduleMaterializer } from '../leader/materializer.js';
import type { CommandBody } from '../leader/proposer.js';
import type { Purger } from '../leader/purger.js';
import { pushGroupConflict } from '../leader/push/push-endpoint.js';
import type { Pusher } from '../leader/push/pusher.js';
import { deletionConflict } from '../state/model/errors.js';
import type { BrokerStateMachine } from '../state/state-machine.js';

export interface LeaderParts {
  readonly node: RaftNode;
  readonly sm: BrokerStateMachine;
  readonly dispatcher: Dispatcher;
  readonly janitor: Janitor;
  /** Absent = schedules are not materialised by this node (a test harness without them). */
  readonly materializer?: ScheduleMaterializer;
  readonly purger: Purger;
  /** Absent = push groups are not served by this node (the broker simulation). */
  readonly pusher?: Pusher;
  readonly proposer: { run(body: CommandBody): Promise<unknown> };
  readonly log: { error(fields: object, message: string): void };
}

/**
 * Connects the state machine and the Raft node's leadership to the leader
 * layer: due times and withdrawn leases reach the dispatcher for every
 * applied entry, and becoming or losing leadership starts or stops the
 * dispatcher, the janitor and the id sequence. The server and the broker
 * simulation both use it, so both run the same lifecycle.
 */
export function wireLeaderLayer(
  parts: LeaderParts,
  hooks: {
    /** Runs first, before the dispatcher starts. */
    onBecameLeader?: (term: number) => void;
    onLostLeadership?: (term: number, leader: string) => void;
  },
): void {
  const { node, sm, dispatcher, janitor, materializer, purger, pusher, proposer, log } = parts;
  // Every applied command that makes an entry due (publish, nack, reschedule, a moved lease's
  // end, a dead letter) or takes or extends a lease in place reaches the heap here, whichever
  // leader proposed it.
  sm.onDue = (changes) => {
    for (const change of changes) dispatcher.noteDue(change.queueHash, change.dueAtMs, change.lapse === true);
  };
  sm.onWithdrawn = (tags) => dispatcher.withdrawn(tags);
  if (materializer) sm.onSchedules = (names) => materializer.noteChanged(names);
  // A deletion ends its consumers' streams at once and is purged by whoever leads.
  sm.onPurges = ({ started }) => {
    for (const p of started) dispatcher.deleted(p.topic, p.group, deletionConflict(p.topic, p.group));
    if (started.length > 0 && node.isLeader()) purger.noteStarted();
  };
  // A group that became a push group ends its streams at once, whenever its endpoint starts (a
  // subscribe after this is refused from the same set): no stream shares it with the endpoint.
  sm.onPushGroups = (became) => {
    for (const { topic, group } of became)
      dispatcher.endStreams(sm.reader.queueHash(topic, group), pushGroupConflict(topic, group));
    if (node.isLeader()) pusher?.wake();
  };
  node.on('became-leader', ({ term }) => {
    hooks.onBecameLeader?.(term);
    // The node applied an entry of this term: every id of earlier leaders has been observed.
    sm.ids.beginLeadership(term);
    sm.ids.entryApplied(term);
    void dispatcher
      .start()
      // Push groups lease through the dispatcher: they start once it runs.
      .then(() => {
        if (node.isLeader() && dispatcher.isActive) pusher?.start();
      })
      .catch((err: unknown) => log.error({ err }, 'dispatcher failed to start'));
    janitor.start();
    purger.start();
    void materializer
      ?.start()
      .catch((err: unknown) => log.error({ err }, 'schedule materialiser failed to start'));
    // The limits apply uses travel in the log: this leader's configured ones, if they differ.
    const values = sm.applyLimitsToPropose();
    if (values) {
      proposer.run({ kind: 'apply-limits', values }).catch((err: unknown) => {
        log.error({ err }, 'proposing the configured apply limits failed (the next leader retries)');
      });
    }
  });
  node.on('lost-leadership', ({ term, leader }) => {
    sm.ids.endLeadership();
    janitor.stop();
    purger.stop();
    materializer?.stop();
    pusher?.stop();
    dispatcher.halt();
    hooks.onLostLeadership?.(term, leader);
  });
}
