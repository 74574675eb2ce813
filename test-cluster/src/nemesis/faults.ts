/**
 * The faults the nemesis draws from. A kind says when it can run (its
 * targets), starts the fault and returns how to heal it and when. Adding a
 * kind is one entry in FAULT_KINDS.
 */
import type { Prng } from '@fermata/raft/sim-ports';
import type { ChaosCluster, ChaosNode } from './cluster.js';

export interface FaultWorld {
  readonly cluster: ChaosCluster;
  readonly rng: Prng;
  /** Node ids some running fault holds (a kind picks its target among the others). */
  readonly busy: Set<string>;
  /** Faults injected and not healed yet. */
  readonly active: number;
  note(line: string): void;
}

/** What an injected fault leaves to do: heal it after `afterMs`, releasing `holds`. */
export interface Injected {
  readonly description: string;
  readonly holds: readonly string[];
  readonly afterMs: number;
  heal(): Promise<void>;
}

export interface FaultKind {
  readonly name: string;
  /** Relative chance of being drawn. */
  readonly weight: number;
  /** Starts the fault, or answers undefined when it cannot run now (no target). */
  inject(w: FaultWorld): Promise<Injected | undefined>;
}

/** A running, unpaused node no other fault holds (random), if any. */
function freeNode(w: FaultWorld, pred: (n: ChaosNode) => boolean = () => true): ChaosNode | undefined {
  const free = w.cluster.nodes.filter((n) => n.handle.running && !n.paused && !w.busy.has(n.id) && pred(n));
  return free.length > 0 ? w.rng.pick(free) : undefined;
}

const MINUTE_MS = 60_000;

/** Cuts `n` off from every other node, both ways, for 1-8 s. */
function isolate(w: FaultWorld, n: ChaosNode, what: string): Injected {
  const others = w.cluster.nodes.filter((o) => o !== n).map((o) => o.id);
  for (const o of others) {
    w.cluster.links.cut(n.id, o);
    w.cluster.links.cut(o, n.id);
  }
  return {
    description: `${what} ${n.id}`,
    holds: [n.id],
    afterMs: w.rng.int(1_000, 8_000),
    heal: async () => {
      for (const o of others) {
        w.cluster.links.heal(n.id, o);
        w.cluster.links.heal(o, n.id);
      }
    },
  };
}

export const FAULT_KINDS: readonly FaultKind[] = [
  {
    name: 'kill',
    weight: 4,
    async inject(w) {
      const n = freeNode(w);
      if (!n) return undefined;
      await w.cluster.kill(n.id);
      return {
        description: `SIGKILL ${n.id}`,
        holds: [n.id],
        afterMs: w.rng.int(500, 5_000),
        heal: () => w.cluster.restart(n.id),
      };
    },
  },
  {
    name: 'pause',
    weight: 3,
    async inject(w) {
      const n = freeNode(w);
      if (!n) return undefined;
      w.cluster.pause(n.id);
      return {
        description: `SIGSTOP ${n.id}`,
        holds: [n.id],
        afterMs: w.rng.int(1_000, 6_000),
        heal: async () => w.cluster.resume(n.id),
      };
    },
  },
  {
    name: 'partition',
    weight: 3,
    async inject(w) {
      const n = freeNode(w);
      return n ? isolate(w, n, 'isolate') : undefined;
    },
  },
  {
    name: 'partition-leader',
    weight: 1,
    async inject(w) {
      const l = await w.cluster.leader();
      if (!l || w.busy.has(l.id)) return undefined;
      return isolate(w, l, 'isolate the leader');
    },
  },
  {
    name: 'link-cut',
    weight: 2,
    async inject(w) {
      const from = freeNode(w);
      if (!from) return undefined;
      const to = w.rng.pick(w.cluster.nodes.filter((o) => o !== from)).id;
      w.cluster.links.cut(from.id, to);
      return {
        description: `cut ${from.id}>${to}`,
        holds: [from.id],
        afterMs: w.rng.int(1_000, 8_000),
        heal: async () => w.cluster.links.heal(from.id, to),
      };
    },
  },
  {
    name: 'disk-full',
    weight: 2,
    async inject(w) {
      // Nodes have disks of their own only where tmpfs can be mounted (run.ts).
      const n = freeNode(w, (x) => x.disk !== undefined);
      const disk = n?.disk;
      if (!n || !disk) return undefined;
      const bytes = disk.fill();
      return {
        description: `fill ${n.id}'s disk (the ${Math.round(bytes / 1024 / 1024)} MiB left)`,
        holds: [n.id],
        afterMs: w.rng.int(2_000, 10_000),
        heal: async () => disk.free(),
      };
    },
  },
  {
    name: 'clock-step',
    weight: 3,
    async inject(w) {
      const n = freeNode(w);
      if (!n) return undefined;
      // An hour or so either way, as an NTP step or a VM migration moves a clock.
      const offsetMs = (w.rng.chance(0.5) ? 1 : -1) * w.rng.int(30 * MINUTE_MS, 90 * MINUTE_MS);
      w.cluster.stepClock(n.id, offsetMs);
      return {
        description: `step ${n.id}'s clock by ${Math.round(offsetMs / 1000)} s`,
        holds: [n.id],
        afterMs: w.rng.int(2_000, 15_000),
        heal: async () => {
          if (w.cluster.node(n.id).handle.running) w.cluster.stepClock(n.id, 0);
        },
      };
    },
  },
  {
    name: 'start-stepped',
    weight: 1,
    async inject(w) {
      const n = freeNode(w);
      if (!n) return undefined;
      // A node started while its system clock is wrong keeps that time: it must never lead
      // (docs/guarantees.md, "The bounds between nodes"); it would move the cluster's time.
      const offsetMs = (w.rng.chance(0.5) ? 1 : -1) * w.rng.int(30 * MINUTE_MS, 90 * MINUTE_MS);
      w.busy.add(n.id);
      try {
        await w.cluster.kill(n.id);
        await w.cluster.restart(n.id, { clockOffsetMs: offsetMs });
      } finally {
        w.busy.delete(n.id);
      }
      return {
        description: `restart ${n.id} with its clock stepped by ${Math.round(offsetMs / 1000)} s`,
        holds: [n.id],
        afterMs: w.rng.int(3_000, 15_000),
        // What an operator does (docs/operations.md, "Clocks"): restart it once its clock is right.
        heal: async () => {
          await w.cluster.kill(n.id);
          await w.cluster.restart(n.id);
        },
      };
    },
  },
  {
    name: 'transfer',
    weight: 2,
    async inject(w) {
      const l = await w.cluster.leader();
      if (!l) return undefined;
      const to = freeNode(w, (n) => n !== l);
      if (!to) return undefined;
      await w.cluster.onLeader((c) => c.transferLeadership(to.id)).catch(() => undefined);
      return {
        description: `transfer leadership ${l.id} -> ${to.id}`,
        holds: [],
        afterMs: 0,
        heal: async () => {},
      };
    },
  },
  {
    name: 'replace-member',
    weight: 1,
    async inject(w) {
      // Alone: a membership change with a node down could leave no quorum for the change.
      if (w.active > 0 || w.cluster.answering.length < w.cluster.nodes.length) return undefined;
      const l = await w.cluster.leader();
      const n = l && freeNode(w, (x) => x !== l);
      if (!n) return undefined;
      w.busy.add(n.id);
      try {
        await w.cluster.replace(n.id, 60_000);
      } finally {
        w.busy.delete(n.id);
      }
      return {
        description: `replace ${n.id} (removed, wiped, added back)`,
        holds: [],
        afterMs: 0,
        heal: async () => {},
      };
    },
  },
  {
    name: 'kill-all',
    weight: 0.3,
    async inject(w) {
      if (w.active > 0 || w.cluster.answering.length < w.cluster.nodes.length) return undefined;
      const ids = w.cluster.nodes.map((n) => n.id);
      await Promise.all(ids.map((id) => w.cluster.kill(id)));
      return {
        description: 'SIGKILL every node',
        holds: ids,
        afterMs: w.rng.int(500, 3_000),
        heal: async () => {
          await Promise.all(ids.map((id) => w.cluster.restart(id)));
        },
      };
    },
  },
];

export const FAULT_NAMES = FAULT_KINDS.map((k) => k.name);
