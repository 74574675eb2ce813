/**
 * Push groups against three real `fermata serve` processes and real local
 * HTTP and HTTPS receivers (the HTTPS one with a CA made here with openssl,
 * given to the group as its CA bundle): what a receiver gets, signed; what
 * each answer makes of the message; how many requests a slow endpoint
 * sees at once; where pushes may not go; a leader SIGKILL during 2,000
 * pushes losing none, and one while the CA bundle cannot be read spending
 * no attempt; a stream ended when its group becomes a blocked push group.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { type FermataClient, FermataError, type Message, verifyPushSignature } from '@fermata/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../../packages/broker/test/push-receiver.js';
import { TestCa } from '../../packages/raft/test/support/certs.js';
import { type Cluster, fermataArgv, startCluster } from '../src/index.js';
import { clientOf, createdTopic } from './sdk-support.js';
import { eventually } from './support.js';

const SECRET = 'push-secret-of-the-test';

/** Runs the `fermata` CLI against the cluster: exit code, stdout, stderr. */
function cli(
  args: readonly string[],
  endpoints: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, fermataArgv(args), {
      cwd: resolvePath(import.meta.dirname, '../..'),
      env: { ...process.env, FERMATA_ENDPOINTS: endpoints },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code: number | null) => resolve({ code, stdout, stderr }));
  });
}

describe('push groups on a three-node cluster', () => {
  let cluster: Cluster;
  let client: FermataClient;
  let dir: string;
  let ca: TestCa;
  let secretFile: string;
  const receivers: Receiver[] = [];
  const receiver = async (tls = false): Promise<Receiver> => {
    const r = await new Receiver().listen(tls ? ca.issue('receiver', { dns: ['localhost'] }) : undefined);
    receivers.push(r);
    return r;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-push-'));
    ca = new TestCa(join(dir, 'ca'));
    secretFile = join(dir, 'push-secret');
    writeFileSync(secretFile, `${SECRET}\n`);
    cluster = await startCluster({
      nodes: 3,
      // The secret and the CA bundle lie in dir: the only files push groups may name.
      env: { FERMATA_PUSH__ALLOWED_ENDPOINTS: '127.0.0.1, localhost', FERMATA_PUSH__FILES_DIR: dir },
    });
    client = clientOf(cluster);
  }, 300_000);
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') console.error(cluster.logs(60));
  });
  afterAll(async () => {
    await client?.close();
    await cluster?.stop();
    for (const r of receivers) await r.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an HTTPS endpoint with its CA bundle gets each message signed: the signature verifies, a tampered body or an old timestamp does not', {
    timeout: 60_000,
  }, async () => {
    const r = await receiver(true);
    const topic = await createdTopic(client, 'push-tls');
    await client.createGroup(topic, 'hook', {
      push: { endpoint: r.url, secretFile, caFile: ca.cert, headers: { 'X-Team': 'billing' } },
    });
    const id = await client.publish(topic, '{"order":17}', {
      key: 'order-17',
      headers: { 'content-type': 'application/json', tenant: 'acme' },
    });
    await eventually(() => r.of(id).length > 0, 30_000, 'the push');
    const got = r.of(id)[0]!;
    const sig = got.headers['fermata-signature'] as string;
    expect(sig).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyPushSignature(SECRET, sig, got.body)).toBe(true);
    expect(verifyPushSignature(SECRET, sig, Buffer.from('{"order":18}'))).toBe(false);
    expect(verifyPushSignature('another secret', sig, got.body)).toBe(false);
    const t = Number(/t=(\d+)/.exec(sig)![1]);
    expect(verifyPushSignature(SECRET, sig, got.body, { nowMs: t + 10 * 60_000 })).toBe(false);
    expect(got.body.toString()).toBe('{"order":17}');
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      'fermata-topic': topic,
      'fermata-group': 'hook',
      'fermata-attempt': '1',
      'fermata-key': 'order-17',
      'fermata-header-tenant': 'acme',
      'idempotency-key': `${topic}/hook/${id}`,
      'x-team': 'billing',
    });
    expect(Number(got.headers['fermata-due-at'])).toBeGreaterThan(0);
    // 2xx acks: the message leaves the group and is not pushed again.
    await eventually(
      async () => {
        const g = (await client.topicStats(topic)).groups.find((x) => x.group === 'hook');
        return g?.pending === 0 && g.inFlight === 0;
      },
      30_000,
      'acked',
    );
    expect(r.of(id)).toHaveLength(1);
    // The test request of the CLI's `push test`, signed the same way.
    const test = await client.testPush(topic, 'hook');
    expect(test.status).toBe(200);
    const probe = r.got.at(-1)!;
    expect(probe.headers['fermata-test']).toBe('1');
    expect(verifyPushSignature(SECRET, probe.headers['fermata-signature'] as string, probe.body)).toBe(true);
  });

  it('503 with Retry-After: 2 is pushed again no sooner than 2 s after that answer', {
    timeout: 60_000,
  }, async () => {
    const r = await receiver();
    r.answer = (_req, n) => (n === 1 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 200 });
    const topic = await createdTopic(client, 'push-503');
    await client.createGroup(topic, 'hook', { push: { endpoint: r.url, backoffInitialMs: 50 } });
    const id = await client.publish(topic, 'later');
    await eventually(() => r.of(id).length >= 2, 30_000, 'the retry');
    const [first, second] = r.of(id);
    expect(second!.headers['fermata-attempt']).toBe('2');
    expect(second!.atMs - first!.answeredAtMs).toBeGreaterThanOrEqual(2_000);
  });

  it('500 backs off and, after max_attempts, dead-letters the message with the status in its history', {
    timeout: 60_000,
  }, async () => {
    const r = await receiver();
    r.answer = () => ({ status: 500 });
    const topic = await createdTopic(client, 'push-500', { maxAttempts: 3 });
    await client.createGroup(topic, 'hook', {
      push: { endpoint: r.url, backoffInitialMs: 300, backoffMultiplier: 2 },
    });
    const letters: Message[] = [];
    const sub = client.subscribe(`${topic}.dlq`, async (m) => {
      letters.push(m);
    });
    try {
      const id = await client.publish(topic, 'doomed');
      await eventually(() => letters.length === 1, 30_000, 'the dead letter');
      const tries = r.of(id);
      expect(tries.map((x) => x.headers['fermata-attempt'])).toEqual(['1', '2', '3']);
      // The backoff: 300 ms, then 600 ms, each from the answer before.
      expect(tries[1]!.atMs - tries[0]!.answeredAtMs).toBeGreaterThanOrEqual(300);
      expect(tries[2]!.atMs - tries[1]!.answeredAtMs).toBeGreaterThanOrEqual(600);
      expect(letters[0]!.deadLetter).toMatchObject({
        reason: 'max_attempts',
        sourceGroup: 'hook',
        sourceId: id,
        attempts: 3,
        lastError: 'HTTP 500: failed with 500',
      });
      // The leader's figures for the group, as GetTopicStats answers them (the console shows them).
      const push = (await client.topicStats(topic)).groups.find((g) => g.group === 'hook')?.push;
      expect(push).toEqual({ requests: { '5xx': 3 }, retries: 3, deadLetters: 1, blocked: '' });
    } finally {
      await sub.close();
    }
  });

  it('a slow endpoint never has more than `concurrency` requests at once', { timeout: 90_000 }, async () => {
    const r = await receiver();
    r.answer = () => ({ status: 200, delayMs: 200 });
    const topic = await createdTopic(client, 'push-slow');
    await client.createGroup(topic, 'hook', { push: { endpoint: r.url, concurrency: 3 } });
    await client.publishBatch(Array.from({ length: 40 }, (_, i) => ({ topic, payload: `m${i}` })));
    await eventually(
      () => new Set(r.got.map((x) => x.headers['fermata-message-id'])).size === 40,
      60_000,
      'all 40',
    );
    expect(r.maxInFlight).toBe(3);
  });

  it('an endpoint outside push.allowedEndpoints, or a metadata address, is refused at creation', async () => {
    const topic = await createdTopic(client, 'push-refused');
    for (const endpoint of [
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00:ec2::254]/',
    ]) {
      const err = await client.createGroup(topic, 'hook', { push: { endpoint } }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, endpoint).toBeInstanceOf(FermataError);
      expect((err as FermataError).message).toMatch(/push.allowedEndpoints|metadata/);
    }
    expect((await client.listTopics()).find((t) => t.name === topic)?.groups).not.toContain('hook');
  });

  it('a secret or CA file outside push.filesDir, by path, .. or a symbolic link, is refused at creation', async () => {
    const topic = await createdTopic(client, 'push-files');
    const outside = mkdtempSync(join(tmpdir(), 'fermata-push-outside-'));
    try {
      const tokens = join(outside, 'tokens');
      writeFileSync(tokens, 'not-to-be-echoed\n');
      symlinkSync(tokens, join(dir, 'escape'));
      for (const [field, path] of [
        ['secret_file', tokens],
        ['secret_file', `${dir}/../${outside.split('/').at(-1)}/tokens`],
        ['ca_file', join(dir, 'escape')],
      ] as const) {
        const file = field === 'secret_file' ? { secretFile: path } : { caFile: path };
        const err = await client
          .createGroup(topic, 'hook', { push: { endpoint: 'http://127.0.0.1:9/', ...file } })
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(err, path).toBeInstanceOf(FermataError);
        expect((err as FermataError).code, path).toBe(9); // FAILED_PRECONDITION
        expect((err as FermataError).details).toMatch(
          new RegExp(`^settings\\.push\\.${field}: .* is not within push\\.filesDir`),
        );
        expect((err as FermataError).details).not.toContain('not-to-be-echoed');
      }
      expect((await client.listTopics()).find((t) => t.name === topic)?.groups).not.toContain('hook');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('an endpoint that is down holds at most one lease (a probe) and gets every message once it is up', {
    timeout: 120_000,
  }, async () => {
    // A port nothing listens on: connections are refused until a receiver takes it.
    const spare = await receiver();
    const port = new URL(spare.url).port;
    await spare.close();
    const topic = await createdTopic(client, 'push-down');
    await client.createGroup(topic, 'hook', {
      push: {
        endpoint: `http://127.0.0.1:${port}/hook`,
        concurrency: 8,
        backoffInitialMs: 200,
        backoffMaxMs: 1_000,
      },
    });
    const ids = (
      await client.publishBatch(Array.from({ length: 50 }, (_, i) => ({ topic, payload: `d${i}` })))
    ).map((r) => r.id);
    const inFlight = async () =>
      (await client.topicStats(topic)).groups.find((g) => g.group === 'hook')!.inFlight;
    // Past the first burst of refused requests (leased at once), it holds no more than its probe.
    await new Promise((r) => setTimeout(r, 1_000));
    await eventually(async () => (await inFlight()) <= 1, 30_000, 'down: at most one lease');
    let most = 0;
    for (let i = 0; i < 20; i++) {
      most = Math.max(most, await inFlight());
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(most).toBeLessThanOrEqual(1);
    const up = new Receiver();
    receivers.push(up);
    await up.listen(undefined, Number(port));
    await eventually(() => ids.every((id) => up.of(id).length > 0), 60_000, 'every message once up');
    // While it was down only the first burst (8) and the probes were leased: most messages
    // arrive on their first attempt, none spent retrying against a dead endpoint.
    const firstTry = ids.filter((id) => up.of(id)[0]!.headers['fermata-attempt'] === '1').length;
    expect(firstTry).toBeGreaterThanOrEqual(30);
  });

  it('fermata push create, update and test, as a user types them', { timeout: 120_000 }, async () => {
    const r = await receiver();
    const topic = await createdTopic(client, 'push-cli');
    const endpoints = cluster.endpoints.join(',');
    const created = await cli(
      [
        'push',
        'create',
        topic,
        'hook',
        '--endpoint',
        r.url,
        '--secret-file',
        secretFile,
        '--concurrency',
        '4',
        '-H',
        'X-Env=test',
      ],
      endpoints,
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain(`created push group hook of topic ${topic}: ${r.url} (concurrency 4`);
    const updated = await cli(['push', 'update', topic, 'hook', '--timeout', '2s'], endpoints);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toMatch(/concurrency 4, timeout 2000 ms/);
    const tested = await cli(['push', 'test', topic, 'hook'], endpoints);
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/^HTTP 200 in \d+ ms\nok\n$/);
    const probe = r.got.at(-1)!;
    expect(probe.headers['x-env']).toBe('test');
    expect(verifyPushSignature(SECRET, probe.headers['fermata-signature'] as string, probe.body)).toBe(true);
    r.answer = () => ({ status: 500 });
    const failing = await cli(['push', 'test', topic, 'hook'], endpoints);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/^HTTP 500 in \d+ ms\nfailed with 500\n$/);
    const refused = await cli(
      ['push', 'create', topic, 'other', '--endpoint', 'http://10.1.2.3/'],
      endpoints,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('push.allowedEndpoints');
  });

  it('a leader SIGKILL during 2,000 pushes loses none and spends no attempt: every id arrives, each request on attempt 1', {
    timeout: 240_000,
  }, async () => {
    const r = await receiver();
    r.answer = () => ({ status: 200, delayMs: 5 });
    const topic = await createdTopic(client, 'push-kill');
    await client.createGroup(topic, 'hook', { push: { endpoint: r.url, concurrency: 16 } });
    const ids: bigint[] = [];
    for (let at = 0; at < 2_000; at += 250) {
      const batch = Array.from({ length: 250 }, (_, i) => ({ topic, payload: `k${at + i}` }));
      ids.push(...(await client.publishBatch(batch)).map((x) => x.id));
    }
    const seenIds = () => new Set(r.got.map((x) => x.headers['fermata-message-id']));
    await eventually(() => seenIds().size >= 300, 60_000, 'pushes before the kill');
    const leader = await cluster.leader();
    await leader.kill('SIGKILL');
    await eventually(() => seenIds().size === 2_000, 180_000, 'every id after the failover');
    const seen = seenIds();
    expect(ids.filter((id) => !seen.has(String(id)))).toEqual([]);
    // The new leader took back the old one's leases (or handed them back uncounted): none spent.
    expect(
      r.got.filter((x) => x.headers['fermata-attempt'] !== '1').map((x) => x.headers['fermata-message-id']),
    ).toEqual([]);
    await leader.start();
  });

  it('a stream subscribed to a group that becomes a push group whose CA bundle cannot be read is ended', {
    timeout: 60_000,
  }, async () => {
    const topic = await createdTopic(client, 'push-ca-stream');
    await client.createGroup(topic, 'later');
    const got: string[] = [];
    const sub = client.subscribe(topic, { group: 'later' }, async (m: Message) => {
      got.push(m.payload.toString());
    });
    await client.publish(topic, 'before');
    await eventually(() => got.length === 1, 30_000, 'the stream subscribed');
    await client.updateGroup(topic, 'later', {
      push: { endpoint: 'http://127.0.0.1:9/', caFile: join(dir, 'no-such-ca.pem') },
    });
    await expect(sub.done).rejects.toThrow(`group "${topic}/later" is a push group`);
    await eventually(
      async () =>
        (await client.topicStats(topic)).groups.find((g) => g.group === 'later')?.push?.blocked !== '',
      30_000,
      'blocked',
    );
  });

  it('a leader SIGKILL while the CA bundle cannot be read spends no attempt: blocked, the new leader takes the leases back', {
    timeout: 180_000,
  }, async () => {
    const r = await receiver(true);
    r.silent = true;
    const caFile = join(dir, 'kill-ca.pem');
    copyFileSync(ca.cert, caFile);
    const topic = await createdTopic(client, 'push-ca-kill');
    // A 5 s timeout (the kill must come before the requests time out, or the leader nacks them
    // counted): 15 s leases, run out long before the file is back unless taken back.
    await client.createGroup(topic, 'hook', {
      push: { endpoint: r.url, caFile, concurrency: 4, timeoutMs: 5_000 },
    });
    const ids = (
      await client.publishBatch(Array.from({ length: 12 }, (_, i) => ({ topic, payload: `c${i}` })))
    ).map((x) => x.id);
    await eventually(() => r.got.length === 4, 30_000, 'the first 4 requests');
    const sentAtMs = Date.now();
    const sent = r.got.map((x) => String(x.headers['fermata-message-id']));
    rmSync(caFile);
    const leader = await cluster.leader();
    await leader.kill('SIGKILL');
    const hook = async () =>
      (await client.topicStats(topic).catch(() => undefined))?.groups.find((g) => g.group === 'hook');
    await eventually(async () => ((await hook())?.push?.blocked ?? '') !== '', 60_000, 'blocked');
    expect((await hook())?.push?.blocked).toMatch(
      /^settings\.push\.ca_file: .*kill-ca\.pem cannot be read: ENOENT$/,
    );
    // Past the leases' end: one left to run out would have spent its attempt.
    await new Promise((done) => setTimeout(done, Math.max(0, sentAtMs + 17_000 - Date.now())));
    expect(r.got).toHaveLength(4);
    const states = await Promise.all(
      ids.map(async (id) => {
        const g = (await client.getMessage(topic, { id })).groups.find((x) => x.group === 'hook')!;
        return `${g.state}/${g.attempt}`;
      }),
    );
    expect(states).toEqual(ids.map(() => 'pending/0'));
    r.silent = false;
    copyFileSync(ca.cert, caFile);
    await eventually(() => ids.every((id) => r.of(id).length > 0), 60_000, 'every message');
    expect(sent.map((id) => r.of(id)).every((x) => x.length === 2)).toBe(true);
    expect(r.got.filter((x) => x.headers['fermata-attempt'] !== '1')).toEqual([]);
    await leader.start();
  });
});
