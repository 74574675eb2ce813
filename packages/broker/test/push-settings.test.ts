// A push group's settings as replicated state: applied from a command, stored in the topic
// record and read back with their defaults, changed by an update mask, refused with the field
// named; where the node's push.allowedEndpoints lets an endpoint point, and which files its
// push.filesDir lets a group name.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EndpointPolicy } from '../src/leader/push/endpoint-policy.js';
import { PushFilesPolicy } from '../src/leader/push/files-policy.js';
import { pushLease } from '../src/leader/push/push-endpoint.js';
import { backoffMs, MAX_RETRY_AFTER_MS, retryAfterMs, verdictOf } from '../src/leader/push/push-request.js';
import { SecretFiles, signature } from '../src/leader/push/signature.js';
import type { ServerContext } from '../src/server/context.js';
import { checkPushSettings } from '../src/server/grpc-push.js';
import { decodeTopic, encodeTopic } from '../src/state/codec/topic.js';
import { BrokerStateMachine } from '../src/state/index.js';
import { PUSH_DEFAULTS } from '../src/state/model/group-settings.js';
import { groupSettingsOf } from '../src/state/model/records.js';
import { Harness } from './state-harness.js';

async function withTopic(): Promise<Harness> {
  const h = await Harness.create();
  await h.ok({ kind: 'create-topic', name: 't' });
  return h;
}

describe('push settings are replicated group settings', () => {
  it('a group created with an endpoint keeps it, with every default filled, through the record codec', async () => {
    const h = await withTopic();
    const r = await h.ok({
      kind: 'create-group',
      topic: 't',
      group: 'hook',
      settings: {
        push: { endpoint: 'https://hooks.example.com/in?x=1', headers: { 'X-B': '2', 'X-A': '1' } },
      },
    });
    const push = groupSettingsOf(r.topic, 'hook').push;
    expect(push).toEqual({
      endpoint: 'https://hooks.example.com/in?x=1',
      timeoutMs: PUSH_DEFAULTS.timeoutMs,
      concurrency: PUSH_DEFAULTS.concurrency,
      backoffInitialMs: PUSH_DEFAULTS.backoffInitialMs,
      backoffMultiplier: PUSH_DEFAULTS.backoffMultiplier,
      backoffMaxMs: PUSH_DEFAULTS.backoffMaxMs,
      headers: { 'X-A': '1', 'X-B': '2' },
      secretFile: '',
      caFile: '',
    });
    expect(groupSettingsOf(decodeTopic(encodeTopic(r.topic)), 'hook').push).toEqual(push);
    const stored = await h.sm.reader.getTopic('t');
    expect(stored && groupSettingsOf(stored, 'hook').push).toEqual(push);
  });

  it('an update naming push.<field> changes that field only; naming push with none ends the push', async () => {
    const h = await withTopic();
    await h.ok({
      kind: 'create-group',
      topic: 't',
      group: 'hook',
      settings: { push: { endpoint: 'http://a.example/x', concurrency: 3, secretFile: '/etc/s' } },
    });
    const u = await h.ok({
      kind: 'update-group',
      topic: 't',
      group: 'hook',
      settings: { push: { timeoutMs: 2_000 } },
      updateMask: ['push.timeout_ms'],
    });
    expect(groupSettingsOf(u.topic, 'hook').push).toMatchObject({
      endpoint: 'http://a.example/x',
      concurrency: 3,
      timeoutMs: 2_000,
      secretFile: '/etc/s',
    });
    const off = await h.ok({
      kind: 'update-group',
      topic: 't',
      group: 'hook',
      settings: {},
      updateMask: ['push'],
    });
    expect(groupSettingsOf(off.topic, 'hook').push).toBeUndefined();
  });

  it('bad push settings are refused with the field named, and change nothing', async () => {
    const h = await withTopic();
    const cases: Array<[object, string]> = [
      [{ endpoint: '' }, 'settings.push.endpoint'],
      [{ endpoint: 'ftp://x.example/' }, 'settings.push.endpoint'],
      [{ endpoint: 'https://u:p@x.example/' }, 'settings.push.endpoint'],
      [{ endpoint: 'https://x.example/', timeoutMs: 50 }, 'settings.push.timeout_ms'],
      [{ endpoint: 'https://x.example/', concurrency: 5_000 }, 'settings.push.concurrency'],
      [
        { endpoint: 'https://x.example/', backoffInitialMs: 10_000, backoffMaxMs: 5_000 },
        'settings.push.backoff_max_ms',
      ],
      [{ endpoint: 'https://x.example/', backoffMultiplier: 0.5 }, 'settings.push.backoff_multiplier'],
      [
        { endpoint: 'https://x.example/', headers: { 'Fermata-Signature': 'x' } },
        'settings.push.headers["Fermata-Signature"]',
      ],
      [{ endpoint: 'https://x.example/', headers: { 'X-A': 'a\r\nb' } }, 'settings.push.headers["X-A"]'],
      [{ endpoint: 'https://x.example/', secretFile: 'relative/secret' }, 'settings.push.secret_file'],
    ];
    for (const [push, field] of cases) {
      const r = await h.run({ kind: 'create-group', topic: 't', group: 'g', settings: { push } });
      expect(r.kind, JSON.stringify(push)).toBe('error');
      if (r.kind === 'error') expect(r.error.message).toContain(field);
    }
    const t = await h.sm.reader.getTopic('t');
    expect(t?.groups).not.toContain('g');
  });
});

describe('the state machine holds the push groups as applied', () => {
  it('says which groups a batch made push groups, and rebuilds them from a snapshot and at open', async () => {
    const h = await withTopic();
    const became: string[] = [];
    h.sm.onPushGroups = (groups) => {
      for (const g of groups) became.push(`${g.topic}/${g.group}`);
    };
    const push = { endpoint: 'http://a.example/x' };
    await h.ok({ kind: 'create-group', topic: 't', group: 'hook', settings: { push } });
    await h.ok({ kind: 'create-group', topic: 't', group: 'plain' });
    await h.ok({ kind: 'create-group', topic: 't', group: 'other' });
    // A change to a push group's settings does not make it one again.
    await h.ok({
      kind: 'update-group',
      topic: 't',
      group: 'hook',
      settings: { push: { timeoutMs: 2_000 } },
      updateMask: ['push.timeout_ms'],
    });
    expect(became).toEqual(['t/hook']);
    const [made, refused] = await h.runAll([
      { kind: 'update-group', topic: 't', group: 'plain', settings: { push }, updateMask: ['push'] },
      {
        kind: 'update-group',
        topic: 't',
        group: 'other',
        settings: { push: { endpoint: '' } },
        updateMask: ['push'],
      },
    ]);
    expect([made?.kind, refused?.kind]).toEqual(['update-group', 'error']);
    expect(became).toEqual(['t/hook', 't/plain']);
    await h.ok({ kind: 'update-group', topic: 't', group: 'hook', settings: {}, updateMask: ['push'] });
    const groups = (sm: BrokerStateMachine) =>
      ['hook', 'plain', 'other', 'default'].filter((g) => sm.pushGroups.has('t', g));
    expect(groups(h.sm)).toEqual(['plain']);
    const snap = await h.sm.snapshot();
    const follower = await Harness.create();
    await follower.sm.restore(snap.chunks);
    expect(groups(follower.sm)).toEqual(['plain']);
    h.sm = await BrokerStateMachine.open({ store: h.store, hasher: h.hasher });
    h.index = h.sm.appliedIndex();
    await h.lead(2);
    expect(groups(h.sm)).toEqual(['plain']);
    await h.deleteTopic('t');
    expect(groups(h.sm)).toEqual([]);
  });
});

describe('a push group header value is printable Latin-1', () => {
  it('the leader refuses a value with a character above U+00FF, DEL or a C1 control before proposing, naming the header', async () => {
    const ctx = {
      pushPolicy: EndpointPolicy.parse(''),
      pushFiles: PushFilesPolicy.parse(''),
    } as unknown as ServerContext;
    const push = (value: string) => ({
      push: { endpoint: 'http://127.0.0.1/', headers: { 'X-Ok': 'fine', 'X-Team': value } },
    });
    for (const [value, code] of [
      ['caf\u00e9 \u2603', 'U+2603'],
      ['emoji \u{1F600}', 'U+1F600'],
      ['del\u007f', 'U+007F'],
      ['c1\u0085', 'U+0085'],
    ] as const) {
      await expect(checkPushSettings(ctx, push(value)), value).rejects.toMatchObject({
        name: 'ValidationError',
        message: `settings.push.headers["X-Team"]: value holds ${code}: a header value is printable Latin-1 (tab, U+0020..U+007E, U+00A0..U+00FF)`,
      });
    }
    // An update judges the headers when its mask sets them, and only then.
    await expect(checkPushSettings(ctx, push('\u20ac100'), ['push.headers'])).rejects.toThrow(
      'settings.push.headers["X-Team"]: value holds U+20AC',
    );
    await expect(checkPushSettings(ctx, push('\u20ac100'), ['push.concurrency'])).resolves.toBeUndefined();
    // Latin-1 letters and tab pass: what an HTTP header carries byte for byte.
    await expect(checkPushSettings(ctx, push('caf\u00e9\tna\u00efve'))).resolves.toBeUndefined();
  });

  it('apply keeps the rule of the versions before (no control character but tab), so their log applies alike', async () => {
    const h = await withTopic();
    // A group an earlier version committed with a value above U+00FF is applied, and updated later.
    await h.ok({
      kind: 'create-group',
      topic: 't',
      group: 'hook',
      settings: { push: { endpoint: 'https://x.example/', headers: { 'X-Team': 'caf\u00e9 \u2603' } } },
    });
    await h.ok({
      kind: 'update-group',
      topic: 't',
      group: 'hook',
      settings: { push: { timeoutMs: 5_000 } },
      updateMask: ['push.timeout_ms'],
    });
    const t = await h.sm.reader.getTopic('t');
    expect(t && groupSettingsOf(t, 'hook').push?.headers).toEqual({ 'X-Team': 'caf\u00e9 \u2603' });
    const r = await h.run({
      kind: 'create-group',
      topic: 't',
      group: 'g',
      settings: { push: { endpoint: 'https://x.example/', headers: { 'X-Team': 'a\u0001b' } } },
    });
    expect(r.kind).toBe('error');
    if (r.kind === 'error')
      expect(r.error.message).toContain('settings.push.headers["X-Team"]: value holds a control character');
  });
});

describe('push.allowedEndpoints bounds where pushes go', () => {
  it('an empty list allows any address but link-local and metadata ones', async () => {
    const p = EndpointPolicy.parse('');
    expect(await p.check(new URL('http://10.1.2.3/x'))).toBeUndefined();
    expect(await p.check(new URL('http://169.254.169.254/latest/meta-data'))).toMatch(/metadata/);
    expect(await p.check(new URL('http://[fd00:ec2::254]/'))).toMatch(/metadata/);
  });

  it('a list allows its names, suffixes and ranges only; a metadata address only when named as it is', async () => {
    const p = EndpointPolicy.parse('hooks.example.com, *.internal.example, 10.0.0.0/8, 169.254.169.254');
    expect(await p.check(new URL('https://hooks.example.com/'))).toBeUndefined();
    expect(await p.check(new URL('https://a.internal.example/'))).toBeUndefined();
    expect(await p.check(new URL('http://10.9.9.9:8080/'))).toBeUndefined();
    expect(await p.check(new URL('http://11.0.0.1/'))).toMatch(/not within push.allowedEndpoints/);
    expect(await p.check(new URL('http://169.254.169.254/'))).toBeUndefined();
    expect(await p.check(new URL('http://169.254.1.1/'))).toMatch(/link-local/);
    expect(() => EndpointPolicy.parse('10.0.0.0/40')).toThrow(/push.allowedEndpoints: "10.0.0.0\/40"/);
  });
});

describe('what an answer means', () => {
  const push = {
    endpoint: 'http://x/',
    timeoutMs: 1000,
    concurrency: 1,
    backoffInitialMs: 100,
    backoffMultiplier: 3,
    backoffMaxMs: 1000,
    headers: {},
    secretFile: '',
    caFile: '',
  };
  it('2xx acks; 429/503 with Retry-After wait that long; the rest back off, growing to the max', () => {
    expect(verdictOf({ kind: 'answered', status: 204, snippet: '' }, push, 1).ack).toBe(true);
    expect(
      verdictOf({ kind: 'answered', status: 503, retryAfterMs: 2000, snippet: '' }, push, 1),
    ).toMatchObject({
      ack: false,
      delayMs: 2000,
    });
    expect(verdictOf({ kind: 'answered', status: 500, snippet: 'boom' }, push, 2)).toMatchObject({
      ack: false,
      delayMs: 300,
      error: 'HTTP 500: boom',
    });
    expect(backoffMs(push, 1)).toBe(100);
    expect(backoffMs(push, 5)).toBe(1000);
    expect(retryAfterMs('2', 0)).toBe(2000);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:05 GMT', 1000)).toBe(4000);
    // Neither delay-seconds nor an HTTP date: the group's backoff applies, not a retry at once.
    for (const odd of ['1.5', '-3', 'soon', '2026-12-07']) expect(retryAfterMs(odd, 0), odd).toBeUndefined();
    // One answer cannot park a message past an hour (or the group's longest backoff, when longer).
    expect(
      verdictOf({ kind: 'answered', status: 503, snippet: '', retryAfterMs: 99_999_999_000 }, push, 1),
    ).toMatchObject({ ack: false, delayMs: MAX_RETRY_AFTER_MS });
  });

  it('the signature is HMAC-SHA256 over the timestamp, a dot and the body', () => {
    expect(signature(Buffer.from('k'), 1700000000000, Buffer.from('hi'))).toBe(
      't=1700000000000,v1=42781dc670e5a4c1d7ff557a1a8cf8e2e125e1097e22d8e376a80eef418e6863',
    );
  });
});

describe('the signing secret is read from its file', () => {
  it('without its trailing newline, and again once the file changed and the recheck time passed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fermata-secret-'));
    try {
      const path = join(dir, 'secret');
      writeFileSync(path, 'one\n');
      const files = new SecretFiles(PushFilesPolicy.parse(dir));
      expect(Buffer.from(await files.read(path, 0)).toString()).toBe('one');
      writeFileSync(path, 'two\r\n');
      // Within the recheck interval the kept secret is used; after it, the changed file is read.
      expect(Buffer.from(await files.read(path, 1_000)).toString()).toBe('one');
      expect(Buffer.from(await files.read(path, 3_000)).toString()).toBe('two');
      writeFileSync(path, '\n');
      await expect(files.read(path, 6_000)).rejects.toThrow(/is empty/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('push.filesDir bounds which files a push group may name', () => {
  const SECRET = 'do-not-echo-this-secret';
  /** A files directory holding `secret`, beside `outside/` holding another secret file. */
  interface Layout {
    readonly root: string;
    readonly dir: string;
    readonly outside: string;
  }
  /** Runs `test` over a files directory holding `secret`, beside `outside/` holding another secret file. */
  async function inLayout(test: (l: Layout) => Promise<void>): Promise<void> {
    const root = mkdtempSync(join(tmpdir(), 'fermata-files-'));
    try {
      const dir = join(root, 'push');
      mkdirSync(dir);
      mkdirSync(join(root, 'outside'));
      writeFileSync(join(dir, 'secret'), `${SECRET}\n`);
      const outside = join(root, 'outside', 'tokens');
      writeFileSync(outside, `${SECRET}\n`);
      await test({ root, dir, outside });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  const F = 'settings.push.secret_file';

  it('a file inside the directory is allowed, and one not made yet is judged by its directory', () =>
    inLayout(async ({ dir }) => {
      const files = PushFilesPolicy.parse(dir);
      expect(await files.check(join(dir, 'secret'), F)).toBeUndefined();
      expect(await files.check(join(dir, 'later', 'secret'), F)).toBeUndefined();
      expect((await files.read(join(dir, 'secret'), F)).toString()).toBe(`${SECRET}\n`);
    }));

  it('a file outside it, a .. path and a symbolic link out are refused, naming the field and the setting', () =>
    inLayout(async ({ root, dir, outside }) => {
      const files = PushFilesPolicy.parse(dir);
      symlinkSync(outside, join(dir, 'link'));
      symlinkSync(join(root, 'outside'), join(dir, 'sub'));
      const refused = [
        outside,
        `${dir}/../outside/tokens`,
        join(dir, 'link'),
        join(dir, 'sub', 'tokens'),
        join(dir, 'sub', 'not-yet'),
        dir,
      ];
      for (const path of refused) {
        const why = await files.check(path, F);
        expect(why, path).toMatch(/^settings\.push\.secret_file: .* is not within push\.filesDir/);
        expect(why).not.toContain(SECRET);
        await expect(files.read(path, F)).rejects.toThrow(/is not within push\.filesDir/);
      }
    }));

  it('unset, no file may be named, and the error says which setting allows one', () =>
    inLayout(async ({ dir }) => {
      const why = await PushFilesPolicy.parse('').check(join(dir, 'secret'), F);
      expect(why).toMatch(/^settings\.push\.secret_file: no file may be named: .*push\.filesDir is not set/);
      expect(() => PushFilesPolicy.parse('relative/dir')).toThrow(
        /push\.filesDir: must be an absolute directory/,
      );
    }));

  it('a file allowed at creation and swapped for a link out is refused when the pusher reads it', () =>
    inLayout(async ({ dir, outside }) => {
      const policy = PushFilesPolicy.parse(dir);
      const secrets = new SecretFiles(policy);
      const path = join(dir, 'secret');
      expect(await policy.check(path, F)).toBeUndefined();
      rmSync(path);
      symlinkSync(outside, path);
      await expect(secrets.read(path, 0)).rejects.toThrow(/is not within push\.filesDir/);
    }));

  it('the leader refuses a create or an update naming a file outside it, FAILED_PRECONDITION, before proposing', () =>
    inLayout(async ({ dir, outside }) => {
      const ctx = {
        pushPolicy: EndpointPolicy.parse(''),
        pushFiles: PushFilesPolicy.parse(dir),
      } as unknown as ServerContext;
      const push = (p: object) => ({ push: { endpoint: 'http://127.0.0.1/', ...p } });
      await expect(
        checkPushSettings(ctx, push({ secretFile: join(dir, 'secret') })),
      ).resolves.toBeUndefined();
      await expect(checkPushSettings(ctx, push({ caFile: outside }))).rejects.toMatchObject({
        name: 'RefusedByConfigError',
        message: expect.stringMatching(/^settings\.push\.ca_file: .* is not within push\.filesDir/),
      });
      // An update judges the files its mask changes, and only those.
      await expect(
        checkPushSettings(ctx, push({ secretFile: outside }), ['push.secret_file']),
      ).rejects.toThrow(/settings\.push\.secret_file/);
      await expect(
        checkPushSettings(ctx, push({ secretFile: outside }), ['push.concurrency']),
      ).resolves.toBeUndefined();
    }));
});

describe("a push group's lease within the cluster's lease limits", () => {
  const push = (timeoutMs: number) => ({
    ...PUSH_DEFAULTS,
    endpoint: 'http://127.0.0.1:9/',
    headers: {},
    secretFile: '',
    caFile: '',
    timeoutMs,
  });
  const limits = (minLeaseMs: number, maxLeaseMs: number) => ({ minLeaseMs, maxLeaseMs });

  it('outlives its request by 10 s for the settlement', () => {
    expect(pushLease(push(10_000), limits(1, 86_400_000))).toEqual({ leaseMs: 20_000, timeoutMs: 10_000 });
  });

  it('is cut to maxLeaseMs, and the request timeout with it, so no lease command fails for it', () => {
    // A lease above maxLeaseMs would fail the lease command that carries every group's runs.
    expect(pushLease(push(300_000), limits(1, 60_000))).toEqual({ leaseMs: 60_000, timeoutMs: 50_000 });
    expect(pushLease(push(5_000), limits(1, 4_000))).toEqual({ leaseMs: 4_000, timeoutMs: 2_000 });
  });

  it('is raised to minLeaseMs; the request keeps its timeout', () => {
    expect(pushLease(push(1_000), limits(30_000, 86_400_000))).toEqual({ leaseMs: 30_000, timeoutMs: 1_000 });
  });
});
