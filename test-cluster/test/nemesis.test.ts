/**
 * The randomized nemesis, short: three real nodes under producers,
 * consumers, cancels, reschedules and schedules while kills, pauses,
 * partitions, clock steps, transfers and member replacements come and go;
 * the simulation's checker then finds every rule kept. And the same run with
 * a node that answers publishes before a majority has them (a test-only
 * injected bug) is caught. `npm run chaos -- --minutes N` runs it longer.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runChaos } from '../src/nemesis/run.js';

const report = (r: Awaited<ReturnType<typeof runChaos>>) =>
  `seed ${r.seed}: ${r.violation ? `${r.violation.rule}: ${r.violation.message}` : 'ok'}; faults ${JSON.stringify(r.faults)}; ${JSON.stringify(r.stats)}${r.dir ? `; kept in ${r.dir}` : ''}\n${r.traceTail.join('\n')}`;

describe('the nemesis over real processes', () => {
  it('keeps every rule of the simulation checker through 40 s of random faults', {
    timeout: 300_000,
  }, async () => {
    const r = await runChaos({ seed: 47, chaosMs: 40_000 });
    console.info(report(r));
    expect(r.ok, report(r)).toBe(true);
    // The run did what it claims: faults of several kinds, traffic of every kind.
    expect(Object.values(r.faults).filter((n) => n > 0).length).toBeGreaterThanOrEqual(3);
    expect(r.stats['publishesAcknowledged']).toBeGreaterThan(200);
    expect(r.stats['acksOk']).toBeGreaterThan(100);
    expect(r.stats['scheduleMessages']).toBeGreaterThan(20);
  });

  it('catches a node that answers publishes before a majority has them', { timeout: 300_000 }, async () => {
    const r = await runChaos({
      seed: 5,
      chaosMs: 20_000,
      bug: 'ack-before-commit',
      // Every fault cuts the leader off: it answers what it alone holds until it steps down.
      faults: ['partition-leader'],
      // What it breaks is found in the history of the faults; the calm only has to drain.
      calmProduceMs: 2_000,
    });
    console.info(report(r));
    // Lost (never delivered), or its id handed to another message by the next leader.
    expect(['acknowledged-publish-ends-as-answered', 'ids-unique-increasing']).toContain(r.violation?.rule);
    if (r.dir) rmSync(r.dir, { recursive: true, force: true });
  });
});
