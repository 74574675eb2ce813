/**
 * The leader's purger (leader/purger.ts): purge steps one at a time, each
 * followed by a pause at least as long as the step took, so that a deletion
 * takes at most about half of the log's time however slow the steps get.
 */

import { ManualClock } from '@fermata/base';
import { describe, expect, it } from 'vitest';
import { Purger } from '../src/leader/purger.js';
import type { Command } from '../src/state/commands/commands.js';
import type { CommandResult } from '../src/state/commands/results.js';
import { Harness, text } from './state-harness.js';

const quiet = { warn: () => undefined, info: () => undefined };

describe('purger', () => {
  it('pauses after each step at least as long as the step took, and at least pauseMs', async () => {
    const h = await Harness.create();
    await h.publish(...Array.from({ length: 50 }, (_, i) => ({ topic: 't', payload: text(`m${i}`) })));
    await h.ok({ kind: 'delete-topic', name: 't' });
    const clock = new ManualClock(h.now);
    const origin = clock.monotonicMs();
    // Each step is applied (through the real state machine) when the test releases it: its
    // duration is what the clock advanced meanwhile.
    const proposed: number[] = [];
    let release: (() => void) | undefined;
    const proposer = {
      run: async (cmd: Command): Promise<CommandResult> => {
        proposed.push(clock.monotonicMs() - origin);
        await new Promise<void>((r) => {
          release = r;
        });
        return h.run(cmd);
      },
    };
    const purger = new Purger({
      sm: h.sm,
      proposer: proposer as never,
      log: quiet,
      clock,
      maxRecordsPerStep: 10,
      pauseMs: 20,
    });
    const step = async (tookMs: number): Promise<void> => {
      await clock.advance(tookMs);
      const r = release!;
      release = undefined;
      r();
      await new Promise((r) => setImmediate(r));
    };
    purger.start();
    await clock.advance(0);
    expect(proposed).toEqual([0]);
    // A slow step (300 ms): the next one comes 300 ms after it ended, not pauseMs.
    await step(300);
    await clock.advance(299);
    expect(proposed).toHaveLength(1);
    await clock.advance(1);
    expect(proposed).toEqual([0, 600]);
    // A quick step (5 ms): pauseMs (20) after it.
    await step(5);
    await clock.advance(19);
    expect(proposed).toHaveLength(2);
    await clock.advance(1);
    expect(proposed).toEqual([0, 600, 625]);
    // Every step went through: the deletion ends (50 entries, 10 a step, and the last one).
    for (let i = 0; i < 10 && h.sm.deleting.size > 0; i++) {
      await step(1);
      await clock.advance(20);
    }
    expect(h.sm.deleting.size).toBe(0);
    expect(await h.sm.reader.getTopic('t')).toBeUndefined();
    purger.stop();
  });
});
