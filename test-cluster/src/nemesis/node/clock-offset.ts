/**
 * Test-only: steps this process's wall clock. `Date.now()` and `new Date()`
 * read the system clock plus an offset (ms) taken from `file` at start and
 * again on SIGUSR2, the way an NTP step or a VM migration moves the system
 * clock under a running process; `performance.now()` and timers (the
 * monotonic clock) do not move. Loaded only by test-node.ts, which the
 * nemesis and the clock tests run instead of `fermata serve`; nothing shipped
 * imports it.
 */
import { readFileSync } from 'node:fs';

export function installClockOffset(file: string): void {
  const RealDate = Date;
  let offsetMs = 0;
  const read = (): void => {
    let next = 0;
    try {
      next = Number(readFileSync(file, 'utf8').trim()) || 0;
    } catch {
      // no file: no offset
    }
    if (next !== offsetMs) {
      process.stderr.write(
        `test clock: system clock stepped by ${next - offsetMs} ms (offset now ${next} ms)\n`,
      );
    }
    offsetMs = next;
  };
  read();
  process.on('SIGUSR2', read);
  function SteppedDate(this: unknown, ...args: unknown[]): unknown {
    if (new.target === undefined) return new RealDate(RealDate.now() + offsetMs).toString();
    if (args.length === 0) return new RealDate(RealDate.now() + offsetMs);
    return new (RealDate as unknown as new (...a: unknown[]) => Date)(...args);
  }
  SteppedDate.prototype = RealDate.prototype;
  Object.assign(SteppedDate, {
    now: () => RealDate.now() + offsetMs,
    parse: RealDate.parse,
    UTC: RealDate.UTC,
  });
  globalThis.Date = SteppedDate as unknown as DateConstructor;
}
