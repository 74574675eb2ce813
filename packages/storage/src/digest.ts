import { createHash } from 'node:crypto';
import type { Range, ReadView } from './store.js';

/**
 * SHA-256 over every entry of a range in order (length-prefixed key and value),
 * as hex. Two stores with the same digest hold the same bytes.
 */
export async function digestStore(view: ReadView, range: Range = {}): Promise<string> {
  const hash = createHash('sha256');
  const len = Buffer.alloc(4);
  await view.scan(range, (key, value) => {
    len.writeUInt32BE(key.length);
    hash.update(len);
    hash.update(key);
    len.writeUInt32BE(value.length);
    hash.update(len);
    hash.update(value);
  });
  return hash.digest('hex');
}
