/**
 * Pause and deadlines in the simulation. A client pauses the topic `sim` (or
 * its group `default`) now and then during the chaos and resumes it a little
 * later (retrying until answered); the calm phase resumes whatever is still
 * paused. Producers give some messages a deadline (clients.ts). The log
 * observer records, from whichever replica applied an index first, each
 * change of the pause and each lease of `sim` in log order (History.applied).
 * Rules:
 * `paused-queue-leases-nothing` (no lease of a queue applied after its pause
 * and before its resume) and `no-lease-past-deadline` (no lease of a message
 * starts at or after its deadline).
 */
import type { Entry, NodeId } from '@fermata/raft';
import { DEFAULT_GROUP } from '../keys.js';
import type { CommandBody } from '../leader/proposer.js';
import { requireLeader } from '../server/context.js';
import { type Command, decodeCommand } from '../state/commands/commands.js';
import type { ApplyResult } from '../state/commands/results.js';
import { groupSettingsOf, type TopicRec } from '../state/model/records.js';
import type { Violation } from './checker.js';
import { type ClientWorld, pickNode, TOPIC, timed } from './clients.js';
import type { AppliedRecord, History } from './history.js';
import type { SimBrokerNode } from './sim-node.js';

/** Records what the log applied to the topic's queues, once per index, in log order. */
export class LogObserver {
  private last = 0;
  /** The state machine's time: the largest stamp applied so far (apply's `nowMs`). */
  private nowMs = 0;

  constructor(private readonly history: History) {}

  /** A replica applied `entries` with `results` (one each). */
  observe(entries: readonly Entry[], results: readonly ApplyResult[]): void {
    entries.forEach((entry, i) => {
      if (entry.index <= this.last) return;
      this.last = entry.index;
      if (entry.type !== 'normal' || entry.data.length === 0) return;
      const cmd = decodeCommand(entry.data);
      this.nowMs = Math.max(this.nowMs, cmd.nowMs);
      for (const record of this.recordsOf(entry.index, cmd, results[i])) this.history.applied.push(record);
    });
  }

  private recordsOf(index: number, cmd: Command, result: ApplyResult): AppliedRecord[] {
    if (!result || result.kind === 'error') return [];
    const pauses = (mask: readonly string[] | undefined, paused: boolean | undefined): boolean =>
      mask && mask.length > 0 ? mask.includes('paused') : paused === true;
    if (cmd.kind === 'update-topic' && cmd.name === TOPIC && pauses(cmd.updateMask, cmd.settings.paused))
      return [{ kind: 'pause', index, group: '', paused: cmd.settings.paused === true }];
    if (cmd.kind === 'update-group' && cmd.topic === TOPIC && pauses(cmd.updateMask, cmd.settings.paused))
      return [{ kind: 'pause', index, group: cmd.group, paused: cmd.settings.paused === true }];
    if (result.kind !== 'lease') return [];
    // The runs' outcomes, in order: a lease is one run; a lease of runs holds several.
    const runs: readonly { topic: string; group: string; tags: readonly Uint8Array[] }[] =
      cmd.kind === 'lease' ? [cmd] : cmd.kind === 'lease-runs' ? cmd.runs : [];
    let at = 0;
    const records: AppliedRecord[] = [];
    for (const run of runs) {
      const outcomes = result.outcomes.slice(at, (at += run.tags.length));
      if (run.topic !== TOPIC) continue;
      const leased = outcomes
        .filter((o) => o.status === 'leased')
        .map((o) => ({ id: o.id!, startsAtMs: o.startsAtMs ?? this.nowMs }));
      const group = run.group || DEFAULT_GROUP;
      if (leased.length > 0) records.push({ kind: 'lease', index, group, nowMs: this.nowMs, leased });
    }
    return records;
  }
}

/** Pauses and resumes of the topic (or its group `default`), by a client of the chaos. */
export class Pauser {
  /** Targets paused (or possibly paused: an unanswered call) and not yet resumed. */
  private readonly held = new Set<string>();
  /** Resumes still retrying. */
  private resuming = 0;
  /** Pauses answered. */
  pauses = 0;

  constructor(
    private readonly w: ClientWorld,
    private readonly leader: () => SimBrokerNode | undefined,
  ) {}

  /** Pauses the topic or its group for a while, then resumes it. */
  pauseForAWhile(): void {
    const w = this.w;
    const group = w.rng.chance(0.5) ? '' : DEFAULT_GROUP;
    if (this.held.has(group) || w.history.publishes.every((p) => !p.answer)) return;
    const node = pickNode(w, this.leader()?.id);
    if (!node) return;
    try {
      requireLeader(node.ctx);
    } catch {
      return; // refused before anything was proposed
    }
    this.held.add(group);
    const what = group === '' ? TOPIC : `${TOPIC}/${group}`;
    w.history.note(w.sched.nowMs, `pause ${what} on ${node.id}`);
    const resume = (): void => this.resume(group);
    timed(
      w,
      () => node.ctx.proposer.run(this.command(group, true)),
      (r) => {
        if (r.kind !== 'error') this.pauses++;
        w.history.note(w.sched.nowMs, `pause ${what} -> ${r.kind}`);
      },
      () => undefined, // unknown: it may have been applied; the resume follows anyway
    );
    w.sched.at(w.rng.int(300, 2_500), () => `resume ${what}`, resume);
  }

  /** Resumes everything that is or may be paused (the calm phase); true once nothing is. */
  async resumeAll(l: SimBrokerNode): Promise<boolean> {
    const topic = await l.ctx.reader.getTopic(TOPIC);
    const pausedNow = topic ? pausedTargets(topic) : [];
    if (this.resuming === 0) for (const group of new Set([...this.held, ...pausedNow])) this.resume(group);
    return this.held.size === 0 && this.resuming === 0 && pausedNow.length === 0;
  }

  private command(group: string, paused: boolean): CommandBody {
    return group === ''
      ? { kind: 'update-topic', name: TOPIC, settings: { paused }, updateMask: ['paused'] }
      : { kind: 'update-group', topic: TOPIC, group, settings: { paused }, updateMask: ['paused'] };
  }

  /** Resumes `group` ('' = the topic), retrying until answered. */
  private resume(group: string): void {
    const w = this.w;
    const what = group === '' ? TOPIC : `${TOPIC}/${group}`;
    this.resuming++;
    const attempt = (hint: NodeId | undefined): void => {
      const node = pickNode(w, hint ?? this.leader()?.id);
      const retry = (): void =>
        w.sched.at(
          w.rng.int(100, 300),
          () => `retry resume ${what}`,
          () => attempt(undefined),
        );
      if (!node) {
        retry();
        return;
      }
      timed(
        w,
        () => node.ctx.proposer.run(this.command(group, false)),
        (r) => {
          if (r.kind === 'error') {
            retry();
            return;
          }
          this.resuming--;
          this.held.delete(group);
          w.history.note(w.sched.nowMs, `resume ${what} answered on ${node.id}`);
        },
        retry,
      );
    };
    attempt(undefined);
  }
}

/** What of the topic is paused by its own flag: '' for the topic, `default` for its group. */
function pausedTargets(topic: TopicRec): string[] {
  const out: string[] = [];
  if (topic.settings.paused) out.push('');
  if (groupSettingsOf(topic, DEFAULT_GROUP).paused) out.push(DEFAULT_GROUP);
  return out;
}

/**
 * The rules of pause and deadlines, over what the log applied
 * (`History.applied`) and the deadlines the publishes were acknowledged with.
 */
export function checkDeliveryControls(h: History): Violation | undefined {
  const deadlines = new Map<bigint, number>();
  for (const [id, p] of h.acknowledged()) if (p.deliverBeforeMs) deadlines.set(id, p.deliverBeforeMs);
  const paused = new Set<string>();
  for (const r of h.applied) {
    if (r.kind === 'pause') {
      if (r.paused) paused.add(r.group);
      else paused.delete(r.group);
      continue;
    }
    const [first] = r.leased;
    if (first && (paused.has('') || paused.has(r.group))) {
      return {
        rule: 'paused-queue-leases-nothing',
        id: first.id,
        message: `entry ${r.index} leased ${r.leased.length} message(s) of ${TOPIC}/${r.group} at ${r.nowMs} while ${paused.has('') ? TOPIC : `${TOPIC}/${r.group}`} was paused`,
      };
    }
    for (const { id, startsAtMs } of r.leased) {
      const deadline = deadlines.get(id);
      if (deadline !== undefined && startsAtMs >= deadline) {
        return {
          rule: 'no-lease-past-deadline',
          id,
          message: `entry ${r.index} leased ${id} from ${startsAtMs} (command at ${r.nowMs}), at or after its deadline ${deadline}`,
        };
      }
    }
  }
  return undefined;
}

/** The source ids of the dead letters of the topic that the final leader holds with reason `deadline_exceeded`. */
export async function deadlineDeadLetters(l: SimBrokerNode): Promise<Set<bigint>> {
  const out = new Set<bigint>();
  const dlq = `${TOPIC}.dlq`;
  if (!(await l.ctx.reader.getTopic(dlq))) return out;
  let pageToken: Uint8Array | undefined;
  do {
    const page = await l.ctx.reader.listMessages(dlq, pageToken ? { pageToken } : {}, l.ctx.proposer.nowMs());
    for (const it of page.items) {
      const d = it.message?.deadLetter;
      if (d?.reason === 'deadline_exceeded' && d.sourceTopic === TOPIC) out.add(d.sourceId);
    }
    pageToken = page.nextPageToken;
  } while (pageToken && pageToken.length > 0);
  return out;
}
