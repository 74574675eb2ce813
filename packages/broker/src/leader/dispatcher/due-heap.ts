/**
 * An indexed binary min-heap of due times by key. The dispatcher keeps the
 * next due time of every queue in one (its acceleration cache, rebuilt from
 * the store when a node becomes leader; never the authority), and its push
 * schedule the due time of every delivery leased ahead in another. `set` and
 * `delete` are O(log n), `peek` O(1).
 */
export class DueHeap<Q> {
  private readonly items: Array<{ queue: Q; dueMs: number }> = [];
  private readonly position = new Map<Q, number>();

  get size(): number {
    return this.items.length;
  }

  /** Sets (or moves) a queue's next due time. */
  set(queue: Q, dueMs: number): void {
    const at = this.position.get(queue);
    if (at === undefined) {
      this.items.push({ queue, dueMs });
      this.position.set(queue, this.items.length - 1);
      this.up(this.items.length - 1);
      return;
    }
    const item = this.items[at]!;
    const before = item.dueMs;
    item.dueMs = dueMs;
    if (dueMs < before) this.up(at);
    else this.down(at);
  }

  /** Lowers a queue's next due time, never raises it (a newly published earlier message). */
  lower(queue: Q, dueMs: number): void {
    const at = this.position.get(queue);
    if (at === undefined || dueMs < this.items[at]!.dueMs) this.set(queue, dueMs);
  }

  get(queue: Q): number | undefined {
    const at = this.position.get(queue);
    return at === undefined ? undefined : this.items[at]!.dueMs;
  }

  delete(queue: Q): void {
    const at = this.position.get(queue);
    if (at === undefined) return;
    const last = this.items.pop()!;
    this.position.delete(queue);
    if (at < this.items.length) {
      this.items[at] = last;
      this.position.set(last.queue, at);
      this.up(at);
      this.down(at);
    }
  }

  peek(): { queue: Q; dueMs: number } | undefined {
    const top = this.items[0];
    return top ? { queue: top.queue, dueMs: top.dueMs } : undefined;
  }

  /** Every queue due at or before `nowMs`, earliest first (the heap is not changed). */
  dueBy(nowMs: number, limit = Number.POSITIVE_INFINITY): Q[] {
    const out: Q[] = [];
    // Walk the heap as a tree: a node above nowMs has no due descendants.
    const stack = [0];
    while (stack.length > 0 && out.length < limit) {
      const i = stack.pop()!;
      const item = this.items[i];
      if (!item || item.dueMs > nowMs) continue;
      out.push(item.queue);
      stack.push(2 * i + 2, 2 * i + 1);
    }
    return out;
  }

  /**
   * The earliest item due after `afterMs`, or undefined. Walks the items due
   * at or before it and their children only: an item due later is the least
   * of its subtree.
   */
  firstAfter(afterMs: number): { queue: Q; dueMs: number } | undefined {
    let best: { queue: Q; dueMs: number } | undefined;
    const stack = [0];
    while (stack.length > 0) {
      const i = stack.pop()!;
      const item = this.items[i];
      if (!item) continue;
      if (item.dueMs > afterMs) {
        if (!best || item.dueMs < best.dueMs) best = item;
        continue;
      }
      stack.push(2 * i + 2, 2 * i + 1);
    }
    return best ? { queue: best.queue, dueMs: best.dueMs } : undefined;
  }

  clear(): void {
    this.items.length = 0;
    this.position.clear();
  }

  private up(i: number): void {
    const items = this.items;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]!.dueMs <= items[i]!.dueMs) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const items = this.items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < items.length && items[l]!.dueMs < items[min]!.dueMs) min = l;
      if (r < items.length && items[r]!.dueMs < items[min]!.dueMs) min = r;
      if (min === i) return;
      this.swap(i, min);
      i = min;
    }
  }

  private swap(a: number, b: number): void {
    const items = this.items;
    const t = items[a]!;
    items[a] = items[b]!;
    items[b] = t;
    this.position.set(items[a]!.queue, a);
    this.position.set(items[b]!.queue, b);
  }
}
