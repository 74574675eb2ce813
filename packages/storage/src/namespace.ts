import { slabBytes } from './slab.js';
import type { BatchOp, Range } from './store.js';

/**
 * A namespace is a one-byte key prefix. Namespaces of one store never
 * interleave (every key of namespace N sorts between [N] and [N+1]), and one
 * batch can write to several of them atomically, which sublevels in separate
 * stores could not.
 */
export class Namespace {
  readonly prefix: number;

  constructor(
    prefix: number,
    readonly name: string,
  ) {
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > 0xfe) {
      throw new RangeError(`namespace prefix must be an integer in [0, 254], got ${prefix}`);
    }
    this.prefix = prefix;
  }

  /** The stored key for `suffix` within this namespace: a slab view (slab.ts), for the write or read at hand. */
  key(suffix: Uint8Array): Uint8Array {
    const out = slabBytes(suffix.length + 1);
    out[0] = this.prefix;
    out.set(suffix, 1);
    return out;
  }

  /** The suffix of a stored key of this namespace (a view, not a copy). */
  strip(key: Uint8Array): Uint8Array {
    if (key[0] !== this.prefix) {
      throw new RangeError(`key does not belong to namespace ${this.name} (prefix ${this.prefix})`);
    }
    return key.subarray(1);
  }

  /** `[gte, lt)` over suffixes, mapped into this namespace; open bounds stay inside it. */
  range(gte?: Uint8Array, lt?: Uint8Array): Required<Range> {
    return {
      gte: gte ? this.key(gte) : Uint8Array.of(this.prefix),
      lt: lt ? this.key(lt) : Uint8Array.of(this.prefix + 1),
    };
  }

  put(suffix: Uint8Array, value: Uint8Array): BatchOp {
    return { type: 'put', key: this.key(suffix), value };
  }

  del(suffix: Uint8Array): BatchOp {
    return { type: 'del', key: this.key(suffix) };
  }
}
