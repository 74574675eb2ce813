import { NS } from '../state/model/layout.js';

const MAGIC_BYTES = 8;

type Part = 'magic' | 'key-length' | 'key' | 'value-length' | 'value';

/**
 * Counts the records of a state snapshot stream (snapshot.ts: an 8-byte magic,
 * then `[u32 key length][key][u32 value length][value]` frames that may
 * straddle chunks) as the chunks go by, and the message bodies among them:
 * the progress of a backup.
 */
export class FrameCounter {
  records = 0;
  messages = 0;
  private part: Part = 'magic';
  /** Bytes of the current part still to come. */
  private left = MAGIC_BYTES;
  private readonly lengthField = Buffer.alloc(4);
  private isBody = false;

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
        this.isBody = chunk[at] === NS.body.prefix;
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
          if (this.isBody) this.messages++;
        }
        this.part = 'key-length';
        this.left = 4;
        return;
      case 'key-length':
        this.keyLength = this.lengthField.readUInt32BE(0);
        this.isBody = false;
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
