import { describe, expect, it } from 'vitest';
import { ConsumeBuffer } from '../src/server/consume-buffer.js';

describe('the node buffer for all consume streams', () => {
  it('takes deliveries up to the limit, one larger alone, and calls onRoom once a refusal is followed by a release', () => {
    const b = new ConsumeBuffer(100);
    let rooms = 0;
    b.onRoom = () => rooms++;
    expect(b.accepts(0, 60)).toBe(true);
    b.add(60);
    expect(b.accepts(0, 40)).toBe(true);
    expect(b.accepts(30, 20)).toBe(false); // 60 held + 30 pending + 20 > 100
    b.add(-10); // released below the limit after a refusal
    expect(rooms).toBe(1);
    b.add(-50);
    expect(rooms).toBe(1); // no refusal since
    expect(b.bytes).toBe(0);
    // Nothing held nor pending: one delivery larger than the limit still goes, alone.
    expect(b.accepts(0, 500)).toBe(true);
    expect(b.accepts(500, 1)).toBe(false);
  });
});
