import { v1 } from '@fermata/protocol';

export { NS } from '../src/state/layout.js';

/** Just the flag the counter check needs, decoded straight from the stored record. */
export function decodeEntryForTest(value: Uint8Array): { inFlight: boolean } {
  return { inFlight: v1.QueueEntry.decode(value).inFlight };
}
