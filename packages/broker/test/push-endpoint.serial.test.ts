/**
 * A push group's endpoint on a real node in this process, against real local
 * HTTP receivers: an endpoint that never answers is down like one that
 * refuses connections; deliveries that wait for an endpoint that is down go
 * back uncounted; a secret file or CA bundle that cannot be read blocks the
 * group (named in its figures, nothing sent, no attempt spent) until it can
 * be read, also on a new leader, which still takes back the last one's
 * leases and ends the streams of the group.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FermataClient, FermataError } from '@fermata/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestCa } from '../../raft/test/support/certs.js';
import type { Consumer } from '../src/leader/dispatcher/consumer.js';
import { BrokerServer } from '../src/server/broker-server.js';
import { loadConfig } from '../src/server/config.js';
import { Receiver } from './push-receiver.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventually(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A local port nothing listens on: connections to it are refused. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((done) => s.listen(0, '127.0.0.1', done));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((done) => s.close(() => done()));
  return port;
}

describe('a push group endpoint on a node in this process', () => {
  let dir: string;
  let files: string;
  let server: BrokerServer;
  let client: FermataClient;
  const receivers: Receiver[] = [];
  /** A receiver, over HTTPS with a certificate of `ca` when given. */
  const receiver = async (ca?: TestCa): Promise<Receiver> => {
    const r = await new Receiver().listen(ca?.issue('receiver', { dns: ['localhost'] }));
    receivers.push(r);
    return r;
  };
  let topics = 0;
  const topic = async (settings: { maxAttempts?: number } = {}): Promise<string> => {
    const name = `push-${++topics}`;
    await client.createTopic(name, settings);
    return name;
  };
  const stats = async (t: string) => (await client.topicStats(t)).groups.find((g) => g.group === 'hook')!;
  const attempts = async (t: string, ids: readonly bigint[]) =>
    Promise.all(
      ids.map(async (id) => {
        const g = (await client.getMessage(t, { id })).groups.find((x) => x.group === 'hook')!;
        return `${g.state}/${g.attempt}`;
      }),
    );

  /**
   * Holds at its take-back (the await between a subscribe's read of its group and the adding of
   * its stream) each consumer of `queue` that `which` picks, until `release`; `restore` undoes it.
   */
  const holdTakeBack = (queue: bigint, which: (c: Consumer) => boolean) => {
    const { dispatcher } = server.ctx;
    const planTakeBack = dispatcher.planTakeBack;
    let reached = (): void => {};
    const atGate = new Promise<void>((done) => (reached = done));
    let release = (): void => {};
    const gate = new Promise<void>((done) => (release = done));
    dispatcher.planTakeBack = async (c, held) => {
      if (c.queue === queue && which(c)) {
        reached();
        await gate;
      }
      return planTakeBack.call(dispatcher, c, held);
    };
    const restore = (): void => {
      dispatcher.planTakeBack = planTakeBack;
      release();
    };
    return { atGate, release, restore };
  };

  /** How a subscription ended within 10 s: its error's message, or that it did not. */
  const howItEnded = (done: Promise<void>): Promise<string> =>
    Promise.race([
      done.then(
        () => 'ended without an error',
        (e: unknown) => (e as Error).message,
      ),
      sleep(10_000).then(() => 'still subscribed'),
    ]);

  /** Starts the node (again) over its data directory, and a client of it, once it leads. */
  const startNode = async (): Promise<void> => {
    server = await BrokerServer.start(
      loadConfig({
        env: {},
        overrides: {
          dataDir: join(dir, 'data'),
          logLevel: 'error',
          client: { listenAddress: '127.0.0.1:0' },
          peer: { listenAddress: '127.0.0.1:0' },
          http: { listenAddress: '127.0.0.1:0' },
          push: { allowedEndpoints: '127.0.0.1, localhost', filesDir: files },
          // Slow purges: a deletion of 200 messages is still under way seconds after it began.
          deletion: { maxRecordsPerStep: 50, pauseMs: 500 },
        },
      }),
    );
    client = new FermataClient({ endpoints: [server.clientAddress], deadlineMs: 30_000 });
    await eventually(async () => (await client.clusterInfo()).leaderId !== '', 30_000, 'a leader');
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-push-endpoint-'));
    files = join(dir, 'push');
    mkdirSync(files);
    await startNode();
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await server?.stop();
    for (const r of receivers) await r.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an endpoint that never answers is down: past its first requests only probes go, and the rest keep their attempts', {
    timeout: 60_000,
  }, async () => {
    const r = await receiver();
    r.silent = true;
    const t = await topic();
    await client.createGroup(t, 'hook', {
      push: { endpoint: r.url, concurrency: 4, timeoutMs: 300, backoffInitialMs: 1_000, backoffMaxMs: 1_000 },
    });
    const ids = (
      await client.publishBatch(Array.from({ length: 20 }, (_, i) => ({ topic: t, payload: `b${i}` })))
    ).map((x) => x.id);
    await eventually(() => r.got.length >= 4, 10_000, 'the first requests');
    await sleep(4_000);
    // The first 4 time out together (one failure), then a probe a second: never a request per message.
    expect(r.got.length).toBeLessThanOrEqual(4 + 5);
    expect((await stats(t)).inFlight).toBeLessThanOrEqual(1);
    expect((await stats(t)).push?.requests.timeout).toBe(r.got.length - (await stats(t)).inFlight);
    r.silent = false;
    await eventually(
      () => ids.every((id) => r.of(id).some((x) => x.headers['fermata-attempt'])),
      30_000,
      'all',
    );
    await eventually(async () => (await stats(t)).pending + (await stats(t)).inFlight === 0, 30_000, 'acked');
    // Only those sent while it was down (the first 4 and the probes) spent an attempt on it.
    const ackedFirstTry = ids.filter((id) => r.of(id).at(-1)!.headers['fermata-attempt'] === '1').length;
    expect(ackedFirstTry).toBeGreaterThanOrEqual(20 - 9);
  });

  it('one request timing out while the others are answered fails that message alone: the endpoint goes on', {
    timeout: 60_000,
  }, async () => {
    const r = await receiver();
    r.holdIf = (x) => x.body.toString() === 'slow';
    const t = await topic();
    // A backoff far longer than the test: an endpoint taken for down would send nothing more in it.
    await client.createGroup(t, 'hook', {
      push: {
        endpoint: r.url,
        concurrency: 4,
        timeoutMs: 300,
        backoffInitialMs: 120_000,
        backoffMaxMs: 120_000,
      },
    });
    await client.publishBatch(['slow', 'a', 'b', 'c'].map((payload) => ({ topic: t, payload })));
    await eventually(
      async () => (await stats(t)).push?.requests.timeout === 1,
      10_000,
      'the slow one timed out',
    );
    const later = (
      await client.publishBatch(Array.from({ length: 20 }, (_, i) => ({ topic: t, payload: `later-${i}` })))
    ).map((x) => x.id);
    await eventually(() => later.every((id) => r.of(id).length > 0), 15_000, 'the later ones pushed');
  });

  it('deliveries leased for an endpoint that goes down go back at once, their attempts not counted', {
    timeout: 60_000,
  }, async () => {
    const port = await closedPort();
    const t = await topic();
    await client.createGroup(t, 'hook', {
      push: {
        endpoint: `http://127.0.0.1:${port}/hook`,
        concurrency: 4,
        timeoutMs: 200,
        backoffInitialMs: 60_000,
      },
    });
    // Three due in 1.5 s are leased ahead with the one due now; it is refused, and the endpoint is down.
    const later = (
      await client.publishBatch(
        Array.from({ length: 3 }, (_, i) => ({ topic: t, payload: `l${i}`, delayMs: 1_500 })),
      )
    ).map((x) => x.id);
    const now = await client.publish(t, 'now');
    await eventually(async () => (await stats(t)).push?.requests.error === 1, 10_000, 'the refused request');
    await sleep(2_500);
    // Never sent: pending with no attempt, not leased to lapse and come back with one spent.
    expect(await attempts(t, later)).toEqual(['pending/0', 'pending/0', 'pending/0']);
    expect(await attempts(t, [now])).toEqual(['pending/1']);
    expect((await stats(t)).inFlight).toBe(0);
  });

  it('a secret file that cannot be read blocks the group, named in its figures: nothing is sent or spent until it can', {
    timeout: 60_000,
  }, async () => {
    const r = await receiver();
    const secretFile = join(files, 'late-secret');
    const t = await topic({ maxAttempts: 2 });
    await client.createGroup(t, 'hook', {
      push: { endpoint: r.url, secretFile, backoffInitialMs: 100, backoffMaxMs: 100 },
    });
    const ids = (
      await client.publishBatch(Array.from({ length: 5 }, (_, i) => ({ topic: t, payload: `s${i}` })))
    ).map((x) => x.id);
    await eventually(async () => (await stats(t)).push?.blocked !== '', 10_000, 'blocked');
    const blocked = (await stats(t)).push!.blocked;
    expect(blocked).toMatch(/^settings\.push\.secret_file: .*late-secret cannot be read: ENOENT$/);
    const metrics = await server.ctx.metrics.registry.metrics();
    expect(metrics).toContain(`fermata_push_blocked{topic="${t}",group="hook"} 1`);
    await sleep(2_000);
    expect(r.got).toHaveLength(0);
    expect(await attempts(t, ids)).toEqual(ids.map(() => 'pending/0'));
    writeFileSync(secretFile, 'the-secret\n');
    await eventually(
      () => ids.every((id) => r.of(id).length > 0),
      20_000,
      'every message once the file is there',
    );
    expect(ids.map((id) => r.of(id)[0]!.headers['fermata-attempt'])).toEqual(ids.map(() => '1'));
    expect((await stats(t)).push?.blocked).toBe('');
    expect(await server.ctx.metrics.registry.metrics()).toContain(
      `fermata_push_blocked{topic="${t}",group="hook"} 0`,
    );
  });

  it('a CA bundle missing when the group is made blocks it, named in its figures: nothing is sent or spent until the file is written', {
    timeout: 60_000,
  }, async () => {
    // HTTPS with a CA of the test's own: sent with the system's CAs instead, every request would fail.
    const ca = new TestCa(join(dir, 'ca-late'));
    const r = await receiver(ca);
    const caFile = join(files, 'late-ca.pem');
    const t = await topic();
    await client.createGroup(t, 'hook', { push: { endpoint: r.url, caFile } });
    const ids = (
      await client.publishBatch(Array.from({ length: 5 }, (_, i) => ({ topic: t, payload: `c${i}` })))
    ).map((x) => x.id);
    await eventually(async () => (await stats(t)).push?.blocked !== '', 10_000, 'blocked');
    expect((await stats(t)).push!.blocked).toMatch(
      /^settings\.push\.ca_file: .*late-ca\.pem cannot be read: ENOENT$/,
    );
    expect(await server.ctx.metrics.registry.metrics()).toContain(
      `fermata_push_blocked{topic="${t}",group="hook"} 1`,
    );
    // Past a reading of the files again (every 2 s): still nothing leased, sent or spent.
    await sleep(2_500);
    expect(r.got).toHaveLength(0);
    expect(await attempts(t, ids)).toEqual(ids.map(() => 'pending/0'));
    expect((await stats(t)).inFlight).toBe(0);
    copyFileSync(ca.cert, caFile);
    await eventually(
      () => ids.every((id) => r.of(id).length > 0),
      20_000,
      'every message once the file is there',
    );
    expect(ids.map((id) => r.of(id).map((x) => x.headers['fermata-attempt']))).toEqual(ids.map(() => ['1']));
    expect((await stats(t)).push?.blocked).toBe('');
    expect(await server.ctx.metrics.registry.metrics()).toContain(
      `fermata_push_blocked{topic="${t}",group="hook"} 0`,
    );
  });

  it('a stream subscribed to a group that becomes a push group whose CA bundle cannot be read is ended', {
    timeout: 30_000,
  }, async () => {
    const t = await topic();
    await client.createGroup(t, 'later');
    const before = client.subscribe(t, { group: 'later' }, () => {});
    const queue = server.ctx.reader.queueHash(t, 'later');
    await eventually(() => server.ctx.dispatcher.consumerCount(queue) === 1, 10_000, 'subscribed');
    await client.updateGroup(t, 'later', {
      push: { endpoint: `http://127.0.0.1:${await closedPort()}/`, caFile: join(files, 'no-such-ca.pem') },
    });
    await expect(before.done).rejects.toThrow(
      `group "${t}/later" is a push group: the leader pushes its messages to its endpoint; subscribe to another group`,
    );
    const later = async () => (await client.topicStats(t)).groups.find((x) => x.group === 'later')!;
    await eventually(async () => (await later()).push?.blocked !== '', 10_000, 'blocked');
    expect((await later()).push!.blocked).toMatch(
      /^settings\.push\.ca_file: .*no-such-ca\.pem cannot be read: ENOENT$/,
    );
  });

  it('a stream cannot subscribe to a push group: FAILED_PRECONDITION naming it, which ends the subscription', async () => {
    const t = await topic();
    await client.createGroup(t, 'hook', { push: { endpoint: `http://127.0.0.1:${await closedPort()}/` } });
    const errors: unknown[] = [];
    const sub = client.subscribe(t, { group: 'hook', onError: (e) => errors.push(e) }, () => {});
    const err = await sub.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(FermataError);
    expect((err as FermataError).code).toBe(9); // FAILED_PRECONDITION
    expect((err as FermataError).details).toBe(
      `subscribe.group: "${t}/hook" is a push group: the leader pushes its messages to its endpoint; subscribe to another group`,
    );
    expect(errors).toEqual([err]);
    // A group that becomes a push group ends the streams subscribed to it.
    await client.createGroup(t, 'later');
    const before = client.subscribe(t, { group: 'later' }, () => {});
    const queue = server.ctx.reader.queueHash(t, 'later');
    await eventually(() => server.ctx.dispatcher.consumerCount(queue) === 1, 10_000, 'subscribed');
    await client.updateGroup(t, 'later', { push: { endpoint: `http://127.0.0.1:${await closedPort()}/` } });
    await expect(before.done).rejects.toThrow(
      `group "${t}/later" is a push group: the leader pushes its messages to its endpoint; subscribe to another group`,
    );
  });

  it('a subscribe that read its group before it became a push group and adds its stream after the endpoint started is refused', {
    timeout: 60_000,
  }, async () => {
    const r = await receiver();
    const t = await topic();
    await client.createGroup(t, 'race');
    const queue = server.ctx.reader.queueHash(t, 'race');
    const { dispatcher } = server.ctx;
    // The subscribe is held at its await between reading the group and adding its stream
    // (taking back what its consumer id holds), while the group becomes a push group; not the
    // endpoint's own take-back.
    const { atGate, release, restore } = holdTakeBack(queue, (c) => c.leasesAhead !== false);
    try {
      const sub = client.subscribe(t, { group: 'race' }, () => {});
      await atGate;
      await client.updateGroup(t, 'race', { push: { endpoint: r.url } });
      await eventually(() => dispatcher.consumerCount(queue) === 1, 10_000, 'the endpoint started');
      release();
      const ended = await howItEnded(sub.done);
      expect(ended).toContain(`subscribe.group: "${t}/race" is a push group`);
      expect(dispatcher.consumerCount(queue)).toBe(1);
    } finally {
      restore();
    }
    const id = await client.publish(t, 'race');
    await eventually(() => r.of(id).length === 1, 10_000, 'pushed');
  });

  it('a subscribe that read its group before the group began to be deleted and adds its stream after is refused', {
    timeout: 60_000,
  }, async () => {
    const t = await topic();
    await client.createGroup(t, 'gone');
    // Messages to delete, so the deletion is still under way when the subscribe goes on.
    await client.publishBatch(Array.from({ length: 200 }, (_, i) => ({ topic: t, payload: `d${i}` })));
    const queue = server.ctx.reader.queueHash(t, 'gone');
    const { dispatcher } = server.ctx;
    // The subscribe is held at its await between reading the group and adding its stream, while
    // the group's deletion begins (and the apply's hook ends the streams the group has then).
    const { atGate, release, restore } = holdTakeBack(queue, () => true);
    try {
      const sub = client.subscribe(t, { group: 'gone' }, () => {});
      await atGate;
      await client.deleteGroup(t, 'gone');
      expect(server.ctx.sm.deleting.list()).toContainEqual({ topic: t, group: 'gone' });
      release();
      const ended = await howItEnded(sub.done);
      expect(ended).toContain(`group "${t}/gone" was deleted`);
      expect(dispatcher.consumerCount(queue)).toBe(0);
    } finally {
      restore();
    }
  });

  it('a subscribe whose group was deleted, purged and gone while it waited is refused: the group is not found', {
    timeout: 60_000,
  }, async () => {
    const t = await topic();
    await client.createGroup(t, 'gone');
    const queue = server.ctx.reader.queueHash(t, 'gone');
    const { atGate, release, restore } = holdTakeBack(queue, () => true);
    try {
      const sub = client.subscribe(t, { group: 'gone' }, () => {});
      await atGate;
      await client.deleteGroup(t, 'gone');
      // No message to remove: the purge ends at its first step, and the deletion leaves the set.
      await eventually(
        () => !server.ctx.sm.deleting.list().some((p) => p.topic === t),
        10_000,
        'the purge done',
      );
      release();
      expect(await howItEnded(sub.done)).toContain(`group "${t}/gone" not found`);
      expect(server.ctx.dispatcher.consumerCount(queue)).toBe(0);
    } finally {
      restore();
    }
  });

  it('a request aborted because the group changed goes back uncounted and is sent again by the new endpoint', {
    timeout: 60_000,
  }, async () => {
    const r = await receiver();
    r.silent = true;
    const t = await topic();
    await client.createGroup(t, 'hook', { push: { endpoint: r.url, timeoutMs: 20_000 } });
    const id = await client.publish(t, 'changed');
    await eventually(() => r.of(id).length === 1, 10_000, 'sent');
    r.silent = false;
    await client.updateGroup(t, 'hook', { push: { timeoutMs: 15_000 } });
    // Not after its 30 s lease ran out, on attempt 2: at once, on attempt 1.
    await eventually(() => r.of(id).length === 2, 10_000, 'sent again');
    expect(r.of(id).map((x) => x.headers['fermata-attempt'])).toEqual(['1', '1']);
  });

  it('a new leader takes back the leases the last one took: sent again with the same attempt, within what is left of the lease', {
    timeout: 90_000,
  }, async () => {
    const r = await receiver();
    r.silent = true;
    // long: a 20 s timeout (a 30 s lease), so what is left of it after the restart (~10 s in) is sent, its timeout cut.
    // short: a 2 s timeout (12 s lease), so too little is left: handed back uncounted and leased anew.
    const long = await topic();
    await client.createGroup(long, 'hook', { push: { endpoint: r.url, timeoutMs: 20_000 } });
    const short = await topic();
    await client.createGroup(short, 'hook', { push: { endpoint: r.url, timeoutMs: 2_000 } });
    const longId = await client.publish(long, 'long');
    const shortId = await client.publish(short, 'short');
    await eventually(() => r.of(longId).length === 1 && r.of(shortId).length === 1, 10_000, 'both sent');
    const firstAtMs = r.of(longId)[0]!.atMs;
    await client.close();
    await server.stop();
    await sleep(8_000);
    await startNode();
    await eventually(() => r.of(longId).length === 2, 15_000, 'the long one taken back');
    r.silent = false;
    await eventually(() => r.of(shortId).length === 2, 15_000, 'the short one sent again');
    // The failover spent no attempt on either.
    expect(r.of(longId).map((x) => x.headers['fermata-attempt'])).toEqual(['1', '1']);
    expect(r.of(shortId).map((x) => x.headers['fermata-attempt'])).toEqual(['1', '1']);
    await eventually(
      async () => (await stats(short)).pending + (await stats(short)).inFlight === 0,
      10_000,
      'acked',
    );
    // The taken-back request ends 5 s before its 30 s lease does (half the lease's 10 s beyond the
    // timeout, kept for the settle), not its full 20 s timeout after it was sent again (about 31 s
    // after the first was received, with the 8 s pause): at most 25 s after the first.
    const again = r.of(longId)[1]!;
    await eventually(() => again.closedAtMs > 0, 30_000, 'the long request ended');
    expect(again.closedAtMs - firstAtMs).toBeLessThan(25_000 + 2_500);
  });

  it("a new leader that cannot read the CA bundle still takes back the last one's leases: once the file is back, each is sent on attempt 1", {
    timeout: 90_000,
  }, async () => {
    const ca = new TestCa(join(dir, 'ca-failover'));
    const r = await receiver(ca);
    r.silent = true;
    const caFile = join(files, 'failover-ca.pem');
    copyFileSync(ca.cert, caFile);
    const t = await topic();
    // A 5 s timeout (the node must stop before its requests time out, or it nacks them counted):
    // a 15 s lease, run out well before the test ends if nobody takes it back.
    await client.createGroup(t, 'hook', { push: { endpoint: r.url, caFile, timeoutMs: 5_000 } });
    const ids = (
      await client.publishBatch(Array.from({ length: 3 }, (_, i) => ({ topic: t, payload: `f${i}` })))
    ).map((x) => x.id);
    await eventually(() => ids.every((id) => r.of(id).length === 1), 10_000, 'all sent');
    const sentAtMs = Date.now();
    rmSync(caFile);
    await client.close();
    await server.stop();
    await startNode();
    await eventually(async () => (await stats(t)).push?.blocked !== '', 15_000, 'blocked');
    // The restarted node holds its push groups as the store says: a blocked one still takes no stream.
    await expect(client.subscribe(t, { group: 'hook' }, () => {}).done).rejects.toThrow(
      `subscribe.group: "${t}/hook" is a push group`,
    );
    // Past the leases' end: a lease left to run out would have spent its attempt by now.
    await sleep(Math.max(0, sentAtMs + 17_000 - Date.now()));
    expect(r.got).toHaveLength(3);
    expect(await attempts(t, ids)).toEqual(ids.map(() => 'pending/0'));
    r.silent = false;
    copyFileSync(ca.cert, caFile);
    await eventually(() => ids.every((id) => r.of(id).length === 2), 20_000, 'every message sent again');
    expect(ids.map((id) => r.of(id).map((x) => x.headers['fermata-attempt']))).toEqual(
      ids.map(() => ['1', '1']),
    );
  });
});
