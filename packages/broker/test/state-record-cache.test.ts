import { describe, expect, it } from 'vitest';
import { RecordCache } from '../src/state/record-cache.js';

describe('record cache', () => {
  it('holds at most its capacity, evicting the least recently written', () => {
    const c = new RecordCache(2);
    c.set('a', Uint8Array.of(1));
    c.set('b', null);
    c.set('a', Uint8Array.of(2)); // refreshes a
    c.set('c', Uint8Array.of(3)); // evicts b
    expect(c.size).toBe(2);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toEqual(Uint8Array.of(2));
    expect(c.get('c')).toEqual(Uint8Array.of(3));
  });

  it('distinguishes known-absent (null) from not cached (undefined); capacity 0 caches nothing', () => {
    const c = new RecordCache(4);
    c.set('gone', null);
    expect(c.get('gone')).toBeNull();
    expect(c.get('never')).toBeUndefined();
    const off = new RecordCache(0);
    off.set('a', Uint8Array.of(1));
    expect(off.get('a')).toBeUndefined();
    expect(() => new RecordCache(-1)).toThrow(/capacity/);
  });

  it('evicts exactly the least recently written over many rewrites (checked against a plain model)', () => {
    const c = new RecordCache(64);
    const model = new Map<string, number>();
    let x = 7;
    for (let i = 0; i < 20_000; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      const id = `k${x % 200}`;
      c.set(id, Uint8Array.of(i & 0xff));
      model.delete(id);
      model.set(id, i & 0xff);
      if (model.size > 64) model.delete(model.keys().next().value!);
      expect(c.size).toBe(model.size);
    }
    for (let k = 0; k < 200; k++) {
      const want = model.get(`k${k}`);
      expect(c.get(`k${k}`)).toEqual(want === undefined ? undefined : Uint8Array.of(want));
    }
  });
});
