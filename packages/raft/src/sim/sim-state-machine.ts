/**
 * The simulator's replicated state machine: the list of applied entries.
 * Applying writes without fsync (the Raft log is the WAL), as the broker's
 * LevelDB batches do: a crash keeps what was flushed and possibly some more
 * of what was applied after (a prefix). Every applied entry is compared with
 * the canonical committed history.
 */
import type { Entry, StateMachine } from '../types.js';
import { entryKey, InvariantViolation } from './checker.js';
import type { Prng } from './prng.js';
import type { SimDisk } from './sim-disk.js';
import { chunksOf, collect } from './sim-storage.js';

/** What the state machine holds durably (survives the node's crashes). */
export interface SmDurable {
  applied: Entry[];
}

export interface SmHooks {
  /** Entry `e` is applied (`how`: by apply, or restored from a snapshot). */
  applied(e: Entry, how: 'apply' | 'snapshot'): void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function encodeEntries(entries: readonly Entry[]): Uint8Array {
  return encoder.encode(
    JSON.stringify(
      entries.map((e) => [e.index, e.term, e.type, Buffer.from(e.data).toString('base64')] as const),
    ),
  );
}

function decodeEntries(bytes: Uint8Array): Entry[] {
  const rows = JSON.parse(decoder.decode(bytes)) as [number, number, Entry['type'], string][];
  return rows.map(([index, term, type, data]) => ({
    index,
    term,
    type,
    data: new Uint8Array(Buffer.from(data, 'base64')),
  }));
}

export class SimStateMachine implements StateMachine {
  private applied: Entry[];

  constructor(
    private readonly node: string,
    private readonly durable: SmDurable,
    private readonly disk: SimDisk,
    private readonly hooks: SmHooks,
  ) {
    this.applied = durable.applied.slice();
    this.generation = disk.generation;
  }

  private readonly generation: number;

  get appliedCount(): number {
    return this.applied.length;
  }

  entry(index: number): Entry | undefined {
    return this.applied[index - 1];
  }

  appliedIndex(): number {
    return this.applied.length;
  }

  apply(entries: readonly Entry[]): Promise<unknown[]> {
    for (const e of entries) {
      if (e.index !== this.applied.length + 1) {
        throw new InvariantViolation('applied-prefix', {
          node: this.node,
          applying: e.index,
          smApplied: this.applied.length,
        });
      }
      this.hooks.applied(e, 'apply');
      this.applied.push(e);
    }
    // LevelDB's batch write, unsynced: a crash may or may not keep it (see crash()).
    return Promise.resolve(entries.map((e) => entryKey(e)));
  }

  flush(): Promise<number> {
    const upTo = this.applied.slice();
    return this.disk
      .submitFor(this.generation, 'state-machine', {
        what: `flush ${upTo.length}`,
        land: () => {
          if (upTo.length >= this.durable.applied.length) this.durable.applied = upTo;
        },
      })
      .then(() => upTo.length);
  }

  snapshot(): Promise<{ index: number; chunks: AsyncIterable<Uint8Array> }> {
    const entries = this.applied.slice();
    return Promise.resolve({ index: entries.length, chunks: chunksOf(encodeEntries(entries)) });
  }

  async restore(chunks: AsyncIterable<Uint8Array>): Promise<number> {
    const entries = decodeEntries(await collect(chunks));
    for (const e of entries) this.hooks.applied(e, 'snapshot');
    entries.forEach((e, i) => {
      if (e.index !== i + 1)
        throw new InvariantViolation('applied-prefix', {
          node: this.node,
          snapshotEntry: e.index,
          at: i + 1,
        });
    });
    this.applied = entries;
    return entries.length;
  }

  /** The node crashed: the unsynced writes that reached the disk are a prefix of those applied since the flush. */
  crash(prng: Prng): void {
    const durable = this.durable.applied.length;
    if (this.applied.length <= durable) return;
    this.durable.applied = this.applied.slice(0, prng.int(durable, this.applied.length));
  }
}
