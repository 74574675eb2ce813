/**
 * One schedule never stops another (docs/schedules.md), on real nodes: a
 * definition whose times the time-zone arithmetic cannot handle is refused
 * naming the field and stores nothing; a schedule that becomes impossible to
 * compute (here: the leader's limits.minScheduleIntervalMs raised above its
 * interval, as an operator rolling out a stricter limit does) is reported
 * broken (GetSchedule, fermata_schedules_broken) while every other schedule
 * keeps firing, across leader changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, NodeClients, sleep, startCluster } from '../src/index.js';
import { clientOf } from './sdk-support.js';
import { eventually, metric, uniqueTopic } from './support.js';

/** Makes `id` the leader (a transfer from whoever leads now). */
async function lead(cluster: Cluster, id: string): Promise<void> {
  await eventually(
    async () => {
      const leader = await cluster.leader();
      if (leader.id === id) return true;
      const c = new NodeClients(leader.clientAddress);
      try {
        await c.transferLeadership(id);
      } catch {
        // an election under way: look again
      } finally {
        c.close();
      }
      return (await cluster.leader()).id === id;
    },
    60_000,
    `${id} to lead`,
  );
}

describe('schedules are isolated from each other', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    // n2 and n3 run with a stricter minimum interval than n1: whichever of them leads
    // replicates it, and a schedule made under n1's cannot be computed any more.
    cluster = await startCluster({
      nodes: 3,
      nodeEnv: {
        n2: { FERMATA_LIMITS__MIN_SCHEDULE_INTERVAL_MS: '1500' },
        n3: { FERMATA_LIMITS__MIN_SCHEDULE_INTERVAL_MS: '1500' },
      },
    });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('a start_at_ms past what the time-zone arithmetic handles is refused naming the field; nothing is stored', async () => {
    const client = clientOf(cluster);
    const topic = uniqueTopic('poison');
    try {
      const err = await client
        .upsertSchedule(topic, 'berlin', {
          spec: '0 0 * * *',
          timeZone: 'Europe/Berlin',
          startAt: 8_640_000_000_000_000,
        })
        .then(
          () => undefined,
          (e: unknown) => e as { name: string; field?: string; details: string },
        );
      expect(err).toMatchObject({ name: 'InvalidArgumentError', field: 'schedule.start_at_ms' });
      expect(err?.details).toMatch(/9999-12-31/);
      const missing = await client.getSchedule(topic, 'berlin').then(
        () => undefined,
        (e: unknown) => (e as { name: string }).name,
      );
      expect(missing).toBe('NotFoundError');
    } finally {
      await client.close();
    }
  });

  it('a schedule that can no longer be computed is reported broken; the others keep firing across leader changes', async () => {
    const client = clientOf(cluster);
    const topic = uniqueTopic('sched');
    try {
      await lead(cluster, 'n1');
      // n1 replicates its own limits once it leads (an apply-limits entry): until then the
      // stricter ones of a previous leader may still refuse an interval of 1 s.
      await eventually(
        () =>
          client.upsertSchedule(topic, 'victim', { spec: 'every 1s', payload: 'v' }).then(
            () => true,
            () => false,
          ),
        30_000,
        'n1 to take the every-1s schedule',
      );
      await client.upsertSchedule(topic, 'good', { spec: 'every 2s', payload: 'g' });
      await eventually(
        async () => (await client.getSchedule(topic, 'victim')).fired > 0n,
        30_000,
        'victim fires',
      );

      // n2 leads and replicates its minimum interval of 1.5 s: `every 1s` cannot be computed.
      await lead(cluster, 'n2');
      await eventually(
        async () => (await client.getSchedule(topic, 'victim')).broken !== '',
        30_000,
        'victim reported broken',
      );
      const victim = await client.getSchedule(topic, 'victim');
      expect(victim.broken).toMatch(/minScheduleIntervalMs/);
      expect(victim.nextFireMs).toEqual([]);
      const listed = await client.listSchedules(topic);
      expect(listed.map((s) => [s.name, s.broken !== ''])).toEqual([
        ['good', false],
        ['victim', true],
      ]);
      await eventually(
        async () => (await metric(cluster.node('n2'), 'fermata_schedules_broken')) === 1,
        30_000,
        'the leader to count the broken schedule',
      );
      expect(await metric(cluster.node('n2'), 'fermata_schedules')).toBeGreaterThanOrEqual(2);

      // The good one fires under n2, and under n3 after another leader change.
      for (const id of ['n2', 'n3']) {
        await lead(cluster, id);
        const before = (await client.getSchedule(topic, 'good')).fired;
        await eventually(
          async () => (await client.getSchedule(topic, 'good')).fired >= before + 2n,
          30_000,
          `good fires under ${id}`,
        );
      }
      const stuck = (await client.getSchedule(topic, 'victim')).fired;
      await sleep(2_500);
      expect((await client.getSchedule(topic, 'victim')).fired).toBe(stuck);
    } finally {
      await client.close();
    }
  });
});
