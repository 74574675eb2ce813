/** Virtual-time event queue: a binary heap ordered by (time, insertion sequence), so runs are deterministic. */
export interface SimEvent {
  readonly atMs: number;
  readonly seq: number;
  readonly run: () => void;
  readonly describe: () => string;
}

export class EventQueue {
  private heap: SimEvent[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(atMs: number, describe: () => string, run: () => void): void {
    this.heap.push({ atMs, seq: this.seq++, run, describe });
    let i = this.heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(this.heap[i]!, this.heap[parent]!)) break;
      [this.heap[i], this.heap[parent]] = [this.heap[parent]!, this.heap[i]!];
      i = parent;
    }
  }

  /** Time of the next event. */
  peekAtMs(): number | undefined {
    return this.heap[0]?.atMs;
  }

  pop(): SimEvent | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (top === undefined || last === undefined || this.heap.length === 0) return top;
    this.heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.heap.length && before(this.heap[l]!, this.heap[m]!)) m = l;
      if (r < this.heap.length && before(this.heap[r]!, this.heap[m]!)) m = r;
      if (m === i) break;
      [this.heap[i], this.heap[m]] = [this.heap[m]!, this.heap[i]!];
      i = m;
    }
    return top;
  }
}

function before(a: SimEvent, b: SimEvent): boolean {
  return a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq);
}
