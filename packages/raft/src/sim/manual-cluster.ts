import { MemoryLog } from '../core/memory-log.js';
import type { RaftCoreOptions } from '../core/raft-core.js';
import type { Entry, HardState, Message, NodeId, ReadState } from '../types.js';
import { Prng } from './prng.js';
import { SimRaftCore } from './sim-core.js';
import { SimulationError } from './sim-error.js';

/** One node of a ManualCluster: the core, its stable storage and what it applied. */
export interface ManualNode {
  readonly id: NodeId;
  core: SimRaftCore;
  log: MemoryLog;
  hardState: HardState;
  applied: Entry[];
  readStates: ReadState[];
  down: boolean;
}

/** A message with every field defaulted (for tests that step hand-made messages). */
export { message } from '../types.js';

/** The cores' election timeout in ticks (heartbeats every tick), unless a test overrides it. */
export const MANUAL_ELECTION_TICKS = 10;

/**
 * A cluster stepped by hand, for unit tests: nothing happens until the test ticks a
 * node, delivers messages or flushes Readies. Readies are processed by the rules
 * (persist, then send persisted messages, apply, advance); messages wait in an
 * outbox that the test inspects, filters or delivers.
 */
export class ManualCluster {
  readonly nodes = new Map<NodeId, ManualNode>();
  outbox: Message[] = [];
  /** Messages for which this returns true are dropped when delivered. */
  dropIf: (m: Message) => boolean = () => false;
  private readonly prng: Prng;

  constructor(
    ids: readonly NodeId[],
    private readonly defaults: Partial<RaftCoreOptions> = {},
    seed = 1,
  ) {
    this.prng = new Prng(seed);
    for (const id of ids) this.add(id, ids);
  }

  add(id: NodeId, bootstrapVoters: readonly NodeId[], options: Partial<RaftCoreOptions> = {}): ManualNode {
    const node: ManualNode = {
      id,
      core: undefined as unknown as SimRaftCore,
      log: new MemoryLog(),
      hardState: { term: 0, vote: '', commit: 0 },
      applied: [],
      readStates: [],
      down: false,
    };
    node.core = this.makeCore(node, bootstrapVoters, options);
    this.nodes.set(id, node);
    this.flush(id);
    return node;
  }

  private makeCore(
    node: ManualNode,
    bootstrapVoters: readonly NodeId[],
    options: Partial<RaftCoreOptions>,
  ): SimRaftCore {
    return new SimRaftCore({
      id: node.id,
      log: node.log,
      hardState: node.hardState,
      applied: node.applied.length > 0 ? node.applied.at(-1)!.index : node.log.snapshotMeta().index,
      bootstrapVoters,
      electionTicks: MANUAL_ELECTION_TICKS,
      heartbeatTicks: 1,
      random: () => this.prng.next(),
      ...this.defaults,
      ...options,
    });
  }

  node(id: NodeId): ManualNode {
    const n = this.nodes.get(id);
    if (!n) throw new SimulationError(`no node ${id}`);
    return n;
  }

  core(id: NodeId): SimRaftCore {
    return this.node(id).core;
  }

  /** Processes every Ready of `id` by the rules; its messages go to the outbox. */
  flush(id: NodeId): void {
    const n = this.node(id);
    while (!n.down && n.core.hasReady()) {
      const rd = n.core.ready();
      if (rd.snapshot) {
        n.log.installSnapshot(rd.snapshot);
        n.applied = [];
      }
      n.log.append(rd.entries);
      if (rd.hardState) n.hardState = rd.hardState;
      this.outbox.push(...rd.messages, ...rd.persistedMessages);
      n.applied.push(...rd.committedEntries);
      n.readStates.push(...rd.readStates);
      n.core.advance(rd);
    }
  }

  flushAll(): void {
    for (const id of this.nodes.keys()) this.flush(id);
  }

  deliver(m: Message): void {
    const to = this.nodes.get(m.to);
    if (!to || to.down || this.dropIf(m)) return;
    to.core.step(m);
    this.flush(m.to);
  }

  /** Delivers queued messages, and those they cause, until the outbox is empty. */
  stabilize(maxMessages = 100_000): void {
    this.flushAll();
    let delivered = 0;
    while (this.outbox.length > 0) {
      const batch = this.outbox;
      this.outbox = [];
      for (const m of batch) {
        this.deliver(m);
        if (++delivered > maxMessages) throw new SimulationError('cluster did not stabilize');
      }
    }
  }

  /** Removes and returns queued messages that match. */
  take(match: (m: Message) => boolean): Message[] {
    const out = this.outbox.filter(match);
    this.outbox = this.outbox.filter((m) => !match(m));
    return out;
  }

  tick(id: NodeId, times = 1): void {
    for (let i = 0; i < times; i++) {
      this.node(id).core.tick();
      this.flush(id);
    }
  }

  /** Ticks `id` until it campaigns, then delivers everything: it wins if it can. */
  elect(id: NodeId): void {
    const core = this.core(id);
    for (let i = 0; i < 100 && (core.status().role === 'follower' || core.status().role === 'learner'); i++) {
      this.tick(id);
    }
    this.stabilize();
  }

  /** Heartbeat rounds from the leader until everything is replicated and committed. */
  heartbeat(leader: NodeId, rounds = 1): void {
    for (let i = 0; i < rounds; i++) {
      this.tick(leader);
      this.stabilize();
    }
  }

  crash(id: NodeId): void {
    const n = this.node(id);
    n.down = true;
  }

  /** Restarts from what the node persisted. */
  restart(id: NodeId, bootstrapVoters: readonly NodeId[] = []): void {
    const n = this.node(id);
    n.down = false;
    n.core = this.makeCore(n, bootstrapVoters, {});
    this.flush(id);
  }

  propose(id: NodeId, text: string): { index: number; term: number } {
    const at = this.core(id).propose(new TextEncoder().encode(text));
    this.flush(id);
    return at;
  }

  /** Texts of the normal, non-empty entries `id` applied. */
  appliedTexts(id: NodeId): string[] {
    return this.node(id)
      .applied.filter((e) => e.type === 'normal' && e.data.length > 0)
      .map((e) => new TextDecoder().decode(e.data));
  }
}
