import { describe, expect, it } from 'vitest';
import { Namespace, slabBytes, slabCopy } from '../src/index.js';

describe('slab allocation', () => {
  it('hands out distinct zeroed regions that later allocations never touch; large ones own their memory', () => {
    const kept = Array.from({ length: 5_000 }, (_, i) =>
      slabCopy(Uint8Array.of(i & 0xff, (i >> 8) & 0xff, 7)),
    );
    const fresh = Array.from({ length: 5_000 }, () => slabBytes(5));
    for (const f of fresh) expect([...f]).toEqual([0, 0, 0, 0, 0]);
    for (const f of fresh) f.fill(0xee);
    kept.forEach((k, i) => {
      expect([...k]).toEqual([i & 0xff, (i >> 8) & 0xff, 7]);
    });
    // Small ones share a slab; a large one does not.
    expect(kept[0]!.buffer).toBe(kept[1]!.buffer);
    const big = slabBytes(64 * 1024);
    expect(big.byteLength).toBe(big.buffer.byteLength);
  });

  it('namespace keys are such views: equal bytes, independent of one another', () => {
    const ns = new Namespace(3, 'test');
    const a = ns.key(Uint8Array.of(1, 2));
    const b = ns.key(Uint8Array.of(1, 2));
    expect([...a]).toEqual([3, 1, 2]);
    b[1] = 9;
    expect([...a]).toEqual([3, 1, 2]);
  });
});
