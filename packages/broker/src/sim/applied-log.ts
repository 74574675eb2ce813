/**
 * The applied log of a broker simulation run: every committed command with
 * its result, recorded by whichever replica applied it first (apply is
 * deterministic, so any replica's result is every replica's). The limit
 * rules (limits.ts) read it rather than the consumers' history.
 */
import type { Entry } from '@fermata/raft';
import { type Command, decodeCommand } from '../state/commands/commands.js';
import type { ApplyResult, CommandResult } from '../state/commands/results.js';

/** The commands the rules read; of the others only the time stamp is kept (apply's time is the largest so far). */
const KEPT = new Set<Command['kind']>([
  'expire',
  'lease',
  'lease-runs',
  'ack',
  'nack',
  'extend',
  'update-group',
  'create-group',
]);

/** One applied command, with the time apply used for it. */
export interface AppliedCommand {
  readonly index: number;
  readonly nowMs: number;
  readonly cmd: Command;
  readonly result: CommandResult;
}

/** Every committed command of a run, by log index, recorded once (by the first replica to apply it). */
export class AppliedLog {
  private readonly byIndex = new Map<
    number,
    { stampMs: number; kept?: { cmd: Command; result: CommandResult } }
  >();

  /** A replica applied `entries` with `results` (BrokerStateMachine.apply). */
  record(entries: readonly Entry[], results: readonly ApplyResult[]): void {
    entries.forEach((e, i) => {
      if (this.byIndex.has(e.index) || e.type === 'conf-change' || e.data.length === 0) return;
      const cmd = decodeCommand(e.data);
      const result = results[i];
      this.byIndex.set(
        e.index,
        KEPT.has(cmd.kind) && result ? { stampMs: cmd.nowMs, kept: { cmd, result } } : { stampMs: cmd.nowMs },
      );
    });
  }

  /** The kept commands in log order, each with apply's time (the largest stamp up to it). */
  commands(): AppliedCommand[] {
    const out: AppliedCommand[] = [];
    let nowMs = 0;
    for (const index of [...this.byIndex.keys()].sort((a, b) => a - b)) {
      const e = this.byIndex.get(index)!;
      nowMs = Math.max(nowMs, e.stampMs);
      if (e.kept) out.push({ index, nowMs, ...e.kept });
    }
    return out;
  }
}
