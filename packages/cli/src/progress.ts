/**
 * A progress line on stderr for bulk input. On a terminal it rewrites one line
 * in place; otherwise (forced with --progress) it prints a line per interval.
 */
export class ProgressLine {
  private timer: NodeJS.Timeout | undefined;
  private lastLength = 0;
  private readonly startedAtMs = Date.now();

  constructor(
    private readonly render: (elapsedMs: number) => string,
    private readonly tty: boolean = process.stderr.isTTY === true,
    intervalMs: number = tty ? 200 : 1000,
  ) {
    this.timer = setInterval(() => this.draw(), intervalMs);
    this.timer.unref();
  }

  private draw(): void {
    const text = this.render(Date.now() - this.startedAtMs);
    if (this.tty) {
      process.stderr.write(`\r${text.padEnd(this.lastLength)}`);
      this.lastLength = text.length;
    } else {
      process.stderr.write(`${text}\n`);
    }
  }

  /** Stops updating and prints the final line. */
  finish(finalText: string): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.tty) process.stderr.write(`\r${finalText.padEnd(this.lastLength)}\n`);
    else process.stderr.write(`${finalText}\n`);
  }
}

/** `12,345` */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** Messages per second over an elapsed time. */
export function rate(n: number, elapsedMs: number): string {
  return elapsedMs <= 0 ? '-' : count(Math.round((n * 1000) / elapsedMs));
}
