// Recurring schedules end to end: `fermata schedules ...` and the SDK against a real
// three-node cluster over gRPC, with the leader killed while an every-second schedule runs.

import { InvalidArgumentError, LimitError, type Message, NotFoundError } from '@fermata/sdk';
import { describe, expect, test, vi } from 'vitest';
import { clusterForFile, exited, lines, waitFor } from './fixture.js';

vi.setConfig({ testTimeout: 180_000 });

const { cluster, client, cli } = clusterForFile(3);

describe('fermata schedules', () => {
  test('create, next, get, list, pause, resume, trigger, delete with their documented output and exit codes', async () => {
    const created = await cli([
      'schedules',
      'create',
      'cli.sched',
      'daily',
      '--spec',
      '30 2 * * *',
      '--time-zone',
      'Europe/Berlin',
      '--payload',
      'hello',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ created: true, schedule: { spec: '30 2 * * *' } });

    const next = await cli(['schedules', 'next', 'cli.sched', 'daily', '-n', '3']);
    expect(next.code, next.stderr).toBe(0);
    const rows = lines(next.stdout);
    expect(rows[0]).toMatch(/LOCAL \(Europe\/Berlin\)\s+UTC/);
    expect(rows).toHaveLength(4);
    // 02:30 local every day: 00:30Z in summer, 01:30Z in winter.
    for (const row of rows.slice(1)) expect(row).toMatch(/02:30:00 GMT\+[12]\s+\S+T0[01]:30:00\.000Z/);

    const list = await cli(['schedules', 'list', 'cli.sched', '--json']);
    expect(JSON.parse(list.stdout).map((s: { name: string }) => s.name)).toEqual(['daily']);

    expect((await cli(['schedules', 'pause', 'cli.sched', 'daily'])).stdout).toBe('done\n');
    expect((await cli(['schedules', 'pause', 'cli.sched', 'daily'])).stdout).toBe('unchanged\n');
    const got = await cli(['schedules', 'get', 'cli.sched', 'daily', '--json']);
    expect(JSON.parse(got.stdout)).toMatchObject({ paused: true, nextFireMs: [] });
    expect((await cli(['schedules', 'resume', 'cli.sched', 'daily'])).stdout).toBe('done\n');

    const trig = await cli(['schedules', 'trigger', 'cli.sched', 'daily']);
    expect(trig.stdout).toMatch(/^triggered: message \d+\n$/);
    const page = await client().listMessages('cli.sched');
    expect(page.messages.map((m) => m.message.headers['fermata-trigger'])).toEqual(['manual']);

    expect((await cli(['schedules', 'delete', 'cli.sched', 'daily'])).stdout).toBe('done\n');
    const again = await cli(['schedules', 'delete', 'cli.sched', 'daily']);
    expect(again.code).toBe(3);
    const missing = await cli(['schedules', 'get', 'cli.sched', 'daily']);
    expect(missing.code).toBe(3);
  });

  test('"last fired" is an occurrence that has passed, never the next one made into a message ahead of time', async () => {
    const { schedule } = await client().upsertSchedule('last.fired', 'tick', {
      spec: 'every 2s',
      payload: 'tick',
    });
    expect(schedule.lastFiredMs).toBe(0);
    await waitFor(
      'two occurrences fired',
      async () => ((await client().getSchedule('last.fired', 'tick')).fired >= 2 ? true : undefined),
      30_000,
    );
    for (let i = 0; i < 3; i++) {
      const before = Date.now();
      const s = await client().getSchedule('last.fired', 'tick');
      // Occurrences become messages up to limits.maxScheduleAheadMs ahead; the last fired is the latest past one.
      expect(s.lastFiredMs).toBeGreaterThan(0);
      expect(s.lastFiredMs).toBeLessThanOrEqual(Date.now());
      expect(s.lastFiredMs).toBeGreaterThan(before - 4_000);
      expect(s.lastFiredMs).toBeLessThan(s.nextFireMs[0]!);
      const shown = await cli(['schedules', 'get', 'last.fired', 'tick']);
      const line = lines(shown.stdout).find((l) => l.startsWith('last fired:'))!;
      expect(Date.parse(line.split(/\s+/)[2]!)).toBeLessThanOrEqual(Date.now());
      await new Promise((r) => setTimeout(r, 700));
    }
    await client().deleteSchedule('last.fired', 'tick');
  });

  test('a bad spec or unknown zone is INVALID_ARGUMENT naming the field (exit 2)', async () => {
    const zone = await cli([
      'schedules',
      'create',
      'cli.sched',
      'z',
      '--spec',
      '0 * * * *',
      '--time-zone',
      'Mars/Olympus',
    ]);
    expect(zone.code).toBe(2);
    expect(zone.stderr).toMatch(/schedule\.time_zone/);
    const spec = await cli(['schedules', 'create', 'cli.sched', 'z', '--spec', '61 * * * *']);
    expect(spec.code).toBe(2);
    expect(spec.stderr).toMatch(/schedule\.spec/);
    const fast = await cli(['schedules', 'create', 'cli.sched', 'z', '--spec', 'every 100ms']);
    expect(fast.stderr).toMatch(/minScheduleIntervalMs/);
  });
});

describe('upsertSchedules: many schedules in one call (SDK)', () => {
  const topic = 'bulk.sched';
  const item = (i: number, spec = '*/5 * * * *') => ({
    topic,
    name: `b${i}`,
    definition: { spec, payload: `p${i}`, headers: { i: String(i) } },
  });

  test('creates them in order, each answered; a repeat changes nothing', async () => {
    const items = Array.from({ length: 300 }, (_, i) => item(i));
    const first = await client().upsertSchedules(items);
    expect(first.map((r) => [r.schedule.name, r.created])).toEqual(items.map((it) => [it.name, true]));
    expect(first[7]!.schedule.nextFireMs).toHaveLength(1);
    const again = await client().upsertSchedules(items.slice(0, 10));
    expect(again.every((r) => r.created === false)).toBe(true);
    const listed = await client().listSchedules(topic, { limit: 1000 });
    expect(listed).toHaveLength(300);
  });

  test('a bad definition refuses the whole call naming schedules[i] and its field; nothing stored changes', async () => {
    const before = await client().getSchedule(topic, 'b1');
    const bad = [item(1, '0 * * * *'), item(400), item(401, '61 * * * *')];
    const err = await client()
      .upsertSchedules(bad)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).field).toBe('schedules[2].spec');
    const zone = await client()
      .upsertSchedules([
        item(402),
        { ...item(403), definition: { spec: '0 * * * *', timeZone: 'Mars/Olympus' } },
      ])
      .catch((e: unknown) => e);
    expect((zone as InvalidArgumentError).field).toBe('schedules[1].time_zone');
    const twice = await client()
      .upsertSchedules([item(404), item(404)])
      .catch((e: unknown) => e);
    expect((twice as InvalidArgumentError).field).toBe('schedules[1].name');
    // Nothing of the refused calls was stored; b1 keeps its definition.
    expect((await client().getSchedule(topic, 'b1')).spec).toBe(before.spec);
    for (const name of ['b400', 'b402', 'b404'])
      await expect(client().getSchedule(topic, name)).rejects.toBeInstanceOf(NotFoundError);
  });

  test('more than maxBatchMessages definitions is RESOURCE_EXHAUSTED naming the limit', async () => {
    const err = await client()
      .upsertSchedules(Array.from({ length: 1001 }, (_, i) => item(1000 + i)))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LimitError);
    expect((err as LimitError).limit).toBe('maxBatchMessages');
    await expect(client().getSchedule(topic, 'b1000')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('an every-second schedule across a leader kill (SDK)', () => {
  test('each occurrence becomes exactly one message: no duplicate, none missing', async () => {
    const byOccurrence = new Map<number, Set<bigint>>();
    const wrongDue: string[] = [];
    await client().createTopic('sdk.sched');
    // A short lease: a delivery the killed leader sent but whose ack it never applied comes back soon.
    const sub = client().subscribe('sdk.sched', { leaseMs: 3_000 }, async (m: Message) => {
      const occ = Number(m.headers['fermata-occurrence-ms']);
      const ids = byOccurrence.get(occ) ?? new Set<bigint>();
      ids.add(m.id);
      byOccurrence.set(occ, ids);
      // Due at its occurrence, or at once when the occurrence was stored after its instant (never before it).
      if (m.dueAtMs < occ) wrongDue.push(`${m.id}: due ${m.dueAtMs}, occurrence ${occ}`);
    });
    const { created, schedule } = await client().upsertSchedule('sdk.sched', 'tick', {
      spec: 'every 1s',
      payload: 'tick',
      keyTemplate: '{schedule}-{occurrence_ms}',
    });
    expect(created).toBe(true);
    expect(schedule.nextFireMs.length).toBeGreaterThan(0);
    await waitFor('four occurrences', async () => (byOccurrence.size >= 4 ? true : undefined), 30_000);

    const info = await client().clusterInfo();
    const index = Number(info.leaderId.slice(1)) - 1;
    const leader = cluster().children[index]!;
    leader.kill('SIGKILL');
    await exited(leader);
    cluster().children.splice(index, 1); // stop() waits for the others only
    const killedAt = Date.now();
    await waitFor(
      'occurrences after the failover',
      async () => ([...byOccurrence.keys()].some((o) => o > killedAt + 8_000) ? true : undefined),
      60_000,
    );
    await client().pauseSchedule('sdk.sched', 'tick');
    const last = Math.max(...byOccurrence.keys());
    // Every occurrence up to the last one delivered, redeliveries of lost acks included.
    await waitFor(
      'the occurrences before the last to be delivered',
      async () => {
        const occ = [...byOccurrence.keys()].filter((o) => o <= last);
        return occ.length === (last - Math.min(...occ)) / 1000 + 1 ? true : undefined;
      },
      20_000,
    ).catch(() => undefined);
    await sub.close();

    expect(wrongDue).toEqual([]); // no message is due before its occurrence (no jitter set)
    const occ = [...byOccurrence.keys()].sort((a, b) => a - b);
    for (const [o, ids] of byOccurrence) expect(ids.size, `occurrence ${o}`).toBe(1);
    expect(occ.length, occ.join(' ')).toBeGreaterThan(10);
    for (let i = 1; i < occ.length; i++) expect(occ[i]! - occ[i - 1]!, `after ${occ[i - 1]}`).toBe(1000);
    const s = await client().getSchedule('sdk.sched', 'tick');
    expect(Number(s.fired)).toBeGreaterThanOrEqual(occ.length);
    expect(s.skipped).toBe(0n);
  });
});
