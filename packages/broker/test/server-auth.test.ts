import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceMethods } from '@fermata/protocol/json';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  authorizeCall,
  parseTokenFile,
  patternToRegExp,
  sha256Hex,
  TokenFileError,
  TokenTable,
} from '../src/server/auth.js';
import { callRequirements, messageRequirements } from '../src/server/auth-interceptor.js';
import { TokenFile } from '../src/server/token-file.js';

const PRODUCER = 'producer-secret-0123456789abcdef';
const CONSUMER = 'consumer-secret-0123456789abcdef';
const OPS = 'ops-secret-0123456789abcdef';
const VIEWER = 'viewer-secret-0123456789abcdef';

const FILE = `
tokens:
  - name: orders-producer
    sha256: ${sha256Hex(PRODUCER)}
    publish: ["orders.*"]
  - name: orders-consumer
    sha256: ${sha256Hex(CONSUMER)}
    consume: ["orders.*", "audit"]
  - name: ops
    sha256: ${sha256Hex(OPS).toUpperCase()}
    admin: ["*"]
    publish: ["*"]
    consume: ["*"]
  - name: viewer
    sha256: ${sha256Hex(VIEWER)}
    read: ["orders.*"]
`;

function md(token?: string, scheme = 'Bearer'): grpc.Metadata {
  const m = new grpc.Metadata();
  if (token !== undefined) m.set('authorization', `${scheme} ${token}`);
  return m;
}

const table = new TokenTable(parseTokenFile(FILE, 'tokens.yaml'));

describe('token patterns', () => {
  it('a star matches any run of characters, everything else matches itself', () => {
    const re = patternToRegExp('orders.*');
    expect(re.test('orders.created')).toBe(true);
    expect(re.test('orders.eu.created.dlq')).toBe(true);
    expect(re.test('orders')).toBe(false);
    expect(re.test('ordersXcreated')).toBe(false);
    expect(patternToRegExp('*').test('anything at all')).toBe(true);
    expect(patternToRegExp('a+b').test('a+b')).toBe(true);
    expect(patternToRegExp('a+b').test('aab')).toBe(false);
  });
});

describe('authentication', () => {
  it('a call without a token is UNAUTHENTICATED', () => {
    const f = authorizeCall(table, md(), [{ kind: 'authenticated' }]);
    expect(f?.code).toBe(grpc.status.UNAUTHENTICATED);
    expect(f?.details).toMatch(/no token/);
  });

  it('an unknown token is UNAUTHENTICATED', () => {
    expect(authorizeCall(table, md('guess'), [{ kind: 'authenticated' }])?.code).toBe(
      grpc.status.UNAUTHENTICATED,
    );
  });

  it('a token under another scheme is UNAUTHENTICATED', () => {
    expect(authorizeCall(table, md(PRODUCER, 'Basic'), [{ kind: 'authenticated' }])?.code).toBe(
      grpc.status.UNAUTHENTICATED,
    );
  });

  it('a known token is authenticated (hashes are compared case-insensitively)', () => {
    expect(authorizeCall(table, md(OPS), [{ kind: 'authenticated' }])).toBeUndefined();
    expect(authorizeCall(table, md(PRODUCER), [{ kind: 'authenticated' }])).toBeUndefined();
  });

  it('with no tokens configured every call is let in', () => {
    const off = new TokenTable([]);
    expect(off.enabled).toBe(false);
    expect(
      authorizeCall(off, md(), [{ kind: 'all-topics', permission: 'admin', what: 'x' }]),
    ).toBeUndefined();
  });
});

describe('permissions', () => {
  it('publish on a matching topic is allowed, elsewhere PERMISSION_DENIED naming permission and topic', () => {
    expect(
      authorizeCall(table, md(PRODUCER), [{ kind: 'topics', permission: 'publish', topics: ['orders.new'] }]),
    ).toBeUndefined();
    const f = authorizeCall(table, md(PRODUCER), [
      { kind: 'topics', permission: 'publish', topics: ['orders.new', 'billing'] },
    ]);
    expect(f?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(f?.details).toBe('token "orders-producer" lacks permission "publish" on topic "billing"');
  });

  it('a producer may not consume, a consumer may not publish', () => {
    expect(
      authorizeCall(table, md(PRODUCER), [{ kind: 'topics', permission: 'consume', topics: ['orders.new'] }])
        ?.details,
    ).toMatch(/lacks permission "consume" on topic "orders.new"/);
    expect(
      authorizeCall(table, md(CONSUMER), [{ kind: 'topics', permission: 'publish', topics: ['orders.new'] }])
        ?.code,
    ).toBe(grpc.status.PERMISSION_DENIED);
    expect(
      authorizeCall(table, md(CONSUMER), [{ kind: 'topics', permission: 'consume', topics: ['audit'] }]),
    ).toBeUndefined();
  });

  it('cluster-wide calls need admin on "*"', () => {
    const req = callRequirements('/fermata.v1.Cluster/AddMember');
    expect(authorizeCall(table, md(OPS), req)).toBeUndefined();
    expect(authorizeCall(table, md(CONSUMER), req)?.details).toMatch(
      /lacks permission "admin" on all topics/,
    );
    expect(
      authorizeCall(table, md(CONSUMER), callRequirements('/fermata.v1.Cluster/GetClusterInfo')),
    ).toBeUndefined();
    // A backup holds every topic's messages.
    const backup = callRequirements('/fermata.v1.Backup/TakeBackup');
    expect(authorizeCall(table, md(OPS), backup)).toBeUndefined();
    expect(authorizeCall(table, md(PRODUCER), backup)?.details).toMatch(
      /lacks permission "admin" on all topics/,
    );
  });

  it('each method needs the documented permission on the topics it names', async () => {
    const none = async () => undefined;
    // The fifth element: a read call, which `read` on the topics allows too.
    const cases: Array<[string, Record<string, unknown>, string, string[], 'read'?]> = [
      ['/fermata.v1.Broker/Publish', { messages: [{ topic: 'a' }, { topic: 'b' }] }, 'publish', ['a', 'b']],
      ['/fermata.v1.Broker/PublishStream', { messages: [{ topic: 'a' }] }, 'publish', ['a']],
      ['/fermata.v1.Broker/Cancel', { topic: 't' }, 'publish', ['t']],
      ['/fermata.v1.Broker/Reschedule', { topic: 't' }, 'publish', ['t']],
      ['/fermata.v1.Broker/GetMessage', { topic: 't' }, 'consume', ['t'], 'read'],
      ['/fermata.v1.Broker/ListMessages', { topic: 't' }, 'consume', ['t'], 'read'],
      ['/fermata.v1.Broker/GetDueForecast', { topic: 't' }, 'consume', ['t'], 'read'],
      ['/fermata.v1.Broker/Consume', { subscribe: { topic: 't' } }, 'consume', ['t']],
      ['/fermata.v1.Admin/CreateTopic', { name: 't' }, 'admin', ['t']],
      ['/fermata.v1.Admin/DeleteTopic', { name: 't' }, 'admin', ['t']],
      ['/fermata.v1.Admin/GetTopicStats', { topic: 't' }, 'admin', ['t'], 'read'],
      ['/fermata.v1.Admin/CreateGroup', { topic: 't' }, 'admin', ['t']],
      ['/fermata.v1.Schedules/UpsertSchedule', { schedule: { topic: 't' } }, 'publish', ['t']],
      [
        '/fermata.v1.Schedules/UpsertSchedules',
        { schedules: [{ topic: 'a' }, { topic: 'b' }, { topic: 'a' }] },
        'publish',
        ['a', 'b'],
      ],
      ['/fermata.v1.Schedules/GetSchedule', { topic: 't' }, 'publish', ['t'], 'read'],
      ['/fermata.v1.Schedules/ListSchedules', { topic: 't' }, 'publish', ['t'], 'read'],
      ['/fermata.v1.Schedules/DeleteSchedule', { topic: 't' }, 'publish', ['t']],
    ];
    for (const [path, msg, permission, topics, read] of cases) {
      expect(await messageRequirements(path, msg, none), path).toEqual([
        { kind: 'topics', permission, topics, ...(read ? { orRead: true } : {}) },
      ]);
    }
  });

  it('a read token may make every call that only reads, on its topics, and no other call', async () => {
    const reads = [
      'Admin/GetTopicStats',
      'Admin/ListTopics',
      'Broker/GetDueForecast',
      'Broker/GetMessage',
      'Broker/ListMessages',
      'Cluster/GetClusterInfo',
      'Schedules/GetSchedule',
      'Schedules/ListSchedules',
    ];
    // Every field a method may name a topic or a tag in, naming `topic` (tags are of its queues).
    const naming = (topic: string): Record<string, unknown> => ({
      topic,
      name: topic,
      messages: [{ topic }],
      schedule: { topic },
      schedules: [{ topic }],
      subscribe: { topic },
      tags: [new Uint8Array(24)],
      tag: new Uint8Array(24),
    });
    const allowed = async (token: string, topic: string): Promise<string[]> => {
      const out: string[] = [];
      for (const service of ['Broker', 'Admin', 'Schedules', 'Cluster', 'Backup']) {
        for (const [method, m] of serviceMethods(service) ?? []) {
          const reqs = [
            ...callRequirements(m.path),
            ...(await messageRequirements(m.path, naming(topic), async () => topic)),
          ];
          if (authorizeCall(table, md(token), reqs) === undefined) out.push(`${service}/${method}`);
        }
      }
      return out.sort();
    };
    expect(await allowed(VIEWER, 'orders.new')).toEqual(reads);
    // Elsewhere only what any known token may do.
    expect(await allowed(VIEWER, 'billing')).toEqual(['Admin/ListTopics', 'Cluster/GetClusterInfo']);
    // Tokens without `read` keep what they had: a consumer reads messages, not stats.
    expect(await allowed(CONSUMER, 'audit')).toEqual(
      expect.arrayContaining(['Broker/GetMessage', 'Broker/ListMessages', 'Broker/Consume', 'Broker/Ack']),
    );
    expect(await allowed(CONSUMER, 'audit')).not.toContain('Admin/GetTopicStats');
  });

  it('a refused read names the permission it needs and that read would do', async () => {
    const refusal = async (method: string, topic: string) =>
      authorizeCall(
        table,
        md(VIEWER),
        await messageRequirements(`/fermata.v1.Broker/${method}`, { topic }, async () => ''),
      )?.details;
    expect(await refusal('GetMessage', 'billing')).toBe(
      'token "viewer" lacks permission "consume" on topic "billing" (or "read", enough for a read)',
    );
    expect(await refusal('Cancel', 'orders.new')).toBe(
      'token "viewer" lacks permission "publish" on topic "orders.new"',
    );
  });

  it('acks by tag need consume on the topic of the tag’s queue; an unknown tag needs consume somewhere', async () => {
    const known = new Uint8Array(24).fill(1);
    const lookup = async (tag: Uint8Array) => (tag[0] === 1 ? 'billing' : undefined);
    const reqs = await messageRequirements(
      '/fermata.v1.Broker/Ack',
      { tags: [known, new Uint8Array(3)] },
      lookup,
    );
    expect(reqs).toEqual([
      { kind: 'topics', permission: 'consume', topics: ['billing'] },
      { kind: 'any-topic', permission: 'consume', what: 'Ack' },
    ]);
    expect(authorizeCall(table, md(CONSUMER), reqs)?.details).toMatch(/"consume" on topic "billing"/);
    expect(authorizeCall(table, md(OPS), reqs)).toBeUndefined();
  });
});

describe('monitoring', () => {
  it('a token may read the HTTP status page and /metrics with monitor: true, admin or read on "*", not otherwise', () => {
    const t = new TokenTable(
      parseTokenFile(
        `tokens:\n  - {name: prom, sha256: ${sha256Hex('p')}, monitor: true}\n` +
          `  - {name: ops, sha256: ${sha256Hex('o')}, admin: ["*"]}\n` +
          `  - {name: app, sha256: ${sha256Hex('a')}, admin: ["app.*"], publish: ["*"]}\n` +
          `  - {name: viewer, sha256: ${sha256Hex('v')}, read: ["*"]}\n` +
          `  - {name: app-viewer, sha256: ${sha256Hex('w')}, read: ["app.*"]}\n`,
        'tokens.yaml',
      ),
    );
    const who = (token: string) => t.authenticateHeader(`Bearer ${token}`);
    expect(who('p')).toHaveProperty('canMonitor', true);
    expect(who('o')).toHaveProperty('canMonitor', true);
    expect(who('a')).toHaveProperty('canMonitor', false);
    // read on every topic sees everything, the nodes' pages too.
    expect(who('v')).toHaveProperty('canMonitor', true);
    expect(who('w')).toHaveProperty('canMonitor', false);
    // monitor grants nothing on the client port.
    expect(
      authorizeCall(t, md('p'), [{ kind: 'any-topic', permission: 'admin', what: 'ListTopics' }])?.code,
    ).toBe(grpc.status.PERMISSION_DENIED);
  });
});

describe('token file', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('refuses a token in clear, unknown keys, duplicate names and bad patterns, naming the entry', () => {
    const bad = (text: string) => () => parseTokenFile(text, 'f.yaml');
    expect(bad('tokens:\n  - name: a\n    sha256: hunter2\n')).toThrow(
      /tokens\[0\]\.sha256 \("a"\): expected 64 hex/,
    );
    expect(bad(`tokens:\n  - name: a\n    sha256: ${sha256Hex('x')}\n    token: x\n`)).toThrow(
      /unknown key "token"/,
    );
    expect(
      bad(`tokens:\n  - {name: a, sha256: ${sha256Hex('x')}}\n  - {name: a, sha256: ${sha256Hex('y')}}\n`),
    ).toThrow(/tokens\[1\]\.name: "a" appears more than once/);
    expect(bad(`tokens:\n  - {name: a, sha256: ${sha256Hex('x')}, publish: [""]}\n`)).toThrow(
      /tokens\[0\]\.publish \("a"\)\[0\]/,
    );
    expect(bad('users: []')).toThrow(TokenFileError);
    expect(bad(`tokens:\n  - {name: a, sha256: ${sha256Hex('x')}, monitor: "yes"}\n`)).toThrow(
      /tokens\[0\]\.monitor \("a"\): expected true or false/,
    );
  });

  it('a changed file replaces the tokens; a broken one keeps the previous tokens', () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-tokens-'));
    const path = join(dir, 'tokens.yaml');
    writeFileSync(path, FILE);
    const warnings: string[] = [];
    const file = new TokenFile(path, 0, { info: () => undefined, warn: (_f, m) => warnings.push(m) });
    expect(file.tokens().authenticate(md(PRODUCER))).toHaveProperty('name', 'orders-producer');
    writeFileSync(path, `tokens:\n  - {name: new, sha256: ${sha256Hex('new-token')}, publish: ["*"]}\n`);
    expect(file.check()).toBe(true);
    expect(file.tokens().authenticate(md(PRODUCER))).toHaveProperty('code', grpc.status.UNAUTHENTICATED);
    expect(file.tokens().authenticate(md('new-token'))).toHaveProperty('name', 'new');
    writeFileSync(path, 'tokens: [');
    expect(file.check()).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(file.tokens().authenticate(md('new-token'))).toHaveProperty('name', 'new');
    writeFileSync(path, 'tokens: []');
    expect(file.check()).toBe(false);
    expect(file.tokens().enabled).toBe(true);
    file.close();
  });
});
