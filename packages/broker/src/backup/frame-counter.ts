import { ENTRY_KEY_PREFIX } from '../state/stores/entries.js';
import { BODY_KEY_PREFIX } from '../state/stores/messages.js';

const MAGIC_BYTES = 8;
/** QueueEntry.body (records.proto): a queue entry that carries its message's body. */
const ENTRY_BODY_FIELD = 15;

type Part = 'magic' | 'key-length' | 'key' | 'value-length' | 'value';

/**
 * Finds whether a protobuf message, fed in pieces, has a length-delimited
 * field of a given number at its top level: it reads the tags and lengths and
 * skips the rest, never holding the bytes.
 */
class FieldFinder {
  found = false;
  /** What the bytes now read are: a tag, a varint value, a length, or `skip` bytes to pass. */
  private state: 'tag' | 'varint' | 'length' | 'skip' = 'tag';
  private skip = 0;
  private value = 0;
  private shift = 0;

  constructor(private readonly field: number) {}

  reset(): void {
    this.found = false;
    this.state = 'tag';
    this.value = 0;
    this.shift = 0;
  }

  push(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) {
      if (this.state === 'skip') {
        const n = Math.min(this.skip, bytes.length - at);
        this.skip -= n;
        at += n;
        if (this.skip === 0) this.state = 'tag';
        continue;
      }
      const b = bytes[at++]!;
      if (this.state === 'varint') {
        if (b < 0x80) this.state = 'tag';
        continue;
      }
      this.value += (b & 0x7f) * 2 ** this.shift;
      this.shift += 7;
      if (b >= 0x80) continue;
      const v = this.value;
      this.value = 0;
      this.shift = 0;
      if (this.state === 'length') {
        this.skip = v;
        this.state = v > 0 ? 'skip' : 'tag';
        continue;
      }
      const wireType = v % 8;
      if (Math.floor(v / 8) === this.field && wireType === 2) this.found = true;
      if (wireType === 0) this.state = 'varint';
      else if (wireType === 2) this.state = 'length';
      else if (wireType === 1 || wireType === 5) {
        this.skip = wireType === 1 ? 8 : 4;
        this.state = 'skip';
      }
    }
  }
}

/**
 * Counts the records of a state snapshot stream (snapshot.ts: an 8-byte magic,
 * then `[u32 key length][key][u32 value length][value]` frames that may
 * straddle chunks) as the chunks go by, and the messages among them (a body
 * record, or a queue entry that carries its message's body): the progress of
 * a backup.
 */
export class FrameCounter {
  records = 0;
  messages = 0;
  private part: Part = 'magic';
  /** Bytes of the current part still to come. */
  private left = MAGIC_BYTES;
  private readonly lengthField = Buffer.alloc(4);
  private isBody = false;
  /** The current record is a queue entry: whether it carries a body is in its value. */
  private isEntry = false;
  private readonly entryBody = new FieldFinder(ENTRY_BODY_FIELD);

  push(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length || this.left === 0) {
      if (this.left === 0) {
        this.endPart();
        continue;
      }
      const n = Math.min(this.left, chunk.length - at);
      if (this.part === 'key-length' || this.part === 'value-length') {
        this.lengthField.set(chunk.subarray(at, at + n), 4 - this.left);
      } else if (this.part === 'key' && this.left === this.keyLength) {
        this.isBody = chunk[at] === BODY_KEY_PREFIX;
        this.isEntry = chunk[at] === ENTRY_KEY_PREFIX;
      } else if (this.part === 'value' && this.isEntry) {
        this.entryBody.push(chunk.subarray(at, at + n));
      }
      this.left -= n;
      at += n;
    }
  }

  private keyLength = 0;

  /** The current part is complete: move to the next. */
  private endPart(): void {
    switch (this.part) {
      case 'magic':
      case 'value':
        if (this.part === 'value') {
          this.records++;
          if (this.isBody || (this.isEntry && this.entryBody.found)) this.messages++;
        }
        this.part = 'key-length';
        this.left = 4;
        return;
      case 'key-length':
        this.keyLength = this.lengthField.readUInt32BE(0);
        this.isBody = false;
        this.isEntry = false;
        this.entryBody.reset();
        this.part = 'key';
        this.left = this.keyLength;
        return;
      case 'key':
        this.part = 'value-length';
        this.left = 4;
        return;
      case 'value-length':
        this.part = 'value';
        this.left = this.lengthField.readUInt32BE(0);
        return;
    }
  }
}
