import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/server/auth.js';
import { loadConfig } from '../src/server/config.js';
import { type HttpServerHandle, startHttpServer } from '../src/server/http.js';
import { BrokerMetrics } from '../src/server/metrics.js';
import { type NodeStatus, readiness } from '../src/server/readiness.js';
import { httpAuthorizer, securityConfigProblems } from '../src/server/security.js';
import { TokenFile } from '../src/server/token-file.js';
import { httpGet as get } from './http-support.js';

const leaderStatus: NodeStatus = {
  nodeId: 'n1',
  clusterId: 'test',
  role: 'leader',
  term: 3,
  leaderId: 'n1',
  leaderAddress: '127.0.0.1:7400',
  commit: 100,
  applied: 100,
  members: [{ id: 'n1', clientAddress: '127.0.0.1:7400', peerAddress: '127.0.0.1:7401', role: 'leader' }],
};

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A strict reader of the Prometheus text format (0.0.4): fails on any line it
 * does not understand. Values are Go floats (NaN and Inf in any case, as
 * Prometheus' own parser accepts them).
 */
function parsePrometheus(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const name = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const sampleRe = new RegExp(
    `^(${name})(?:\\{(.*)\\})? (-?[0-9.eE+-]+|[nN][aA][nN]|[+-]?[iI][nN][fF])( -?\\d+)?$`,
  );
  const labelRe = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) continue;
    const t = new RegExp(`^# TYPE (${name}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
    if (t) {
      types.set(t[1]!, t[2]!);
      continue;
    }
    const m = sampleRe.exec(line);
    if (!m) throw new Error(`not Prometheus text: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    if (m[2] !== undefined && m[2] !== '') {
      labelRe.lastIndex = 0;
      let consumed = 0;
      for (let l = labelRe.exec(m[2]); l !== null; l = labelRe.exec(m[2])) {
        labels[l[1]!] = l[2]!;
        consumed = labelRe.lastIndex;
      }
      if (consumed !== m[2].length) throw new Error(`bad labels in ${JSON.stringify(line)}`);
    }
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return { types, samples };
}

let servers: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(status: () => NodeStatus, metrics = new BrokerMetrics({ processMetrics: false })) {
  const s = await startHttpServer({
    listenAddress: '127.0.0.1:0',
    status,
    registry: metrics.registry,
    readyMaxLagEntries: 10,
  });
  servers.push(s);
  return s;
}

describe('readiness rule', () => {
  it('a node is ready when it knows a leader and applied is within the allowed lag of commit', () => {
    expect(readiness(leaderStatus, 10)).toEqual({ ready: true });
    expect(readiness({ ...leaderStatus, role: 'follower', leaderId: 'n2', applied: 90 }, 10)).toEqual({
      ready: true,
    });
    expect(readiness({ ...leaderStatus, applied: 89 }, 10)).toEqual({
      ready: false,
      reason: 'applied index 89 is 11 entries behind commit index 100 (most allowed 10)',
    });
    expect(readiness({ ...leaderStatus, leaderId: '', role: 'candidate', term: 4 }, 10)).toEqual({
      ready: false,
      reason: 'no leader known (term 4)',
    });
    expect(readiness({ ...leaderStatus, stopping: true }, 10)).toEqual({
      ready: false,
      reason: 'shutting down',
    });
  });

  it('a node is not ready while one apply has been running longer than the allowed time', () => {
    expect(readiness({ ...leaderStatus, applyRunningMs: 2_999 }, 10, 3_000)).toEqual({ ready: true });
    expect(readiness({ ...leaderStatus, applyRunningMs: 4_200.4 }, 10, 3_000)).toEqual({
      ready: false,
      reason: 'one apply has been running for 4200 ms (most allowed 3000)',
    });
  });
});

describe('HTTP endpoints', () => {
  it('/livez answers 200 while the process serves', async () => {
    const s = await serve(() => ({ ...leaderStatus, leaderId: '' }));
    const r = await get(s.port, '/livez');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ live: true });
  });

  it('/readyz is 200 for a ready node and 503 with the reason otherwise, following the provider', async () => {
    let status: NodeStatus = leaderStatus;
    const s = await serve(() => status);
    expect((await get(s.port, '/readyz')).status).toBe(200);

    status = { ...leaderStatus, role: 'follower', leaderId: '', leaderAddress: '' };
    const noLeader = await get(s.port, '/readyz');
    expect(noLeader.status).toBe(503);
    expect(noLeader.type).toBe('application/json');
    expect(JSON.parse(noLeader.body)).toEqual({ ready: false, reason: 'no leader known (term 3)' });

    status = { ...leaderStatus, role: 'follower', leaderId: 'n2', commit: 500, applied: 100 };
    const behind = await get(s.port, '/readyz');
    expect(behind.status).toBe(503);
    expect(JSON.parse(behind.body).reason).toBe(
      'applied index 100 is 400 entries behind commit index 500 (most allowed 10)',
    );

    status = { ...status, applied: 495 };
    expect((await get(s.port, '/readyz')).status).toBe(200);
  });

  it('/readyz is 503 when the status provider throws', async () => {
    const s = await serve(() => {
      throw new Error('node not started');
    });
    const r = await get(s.port, '/readyz');
    expect(r.status).toBe(503);
    expect(JSON.parse(r.body).reason).toBe('status unavailable: node not started');
  });

  it('/ shows node id, role, term, leader and indexes as JSON, or HTML when asked', async () => {
    const s = await serve(() => ({
      ...leaderStatus,
      role: 'follower',
      leaderId: 'n2',
      leaderAddress: 'h2:7400',
    }));
    const j = await get(s.port, '/');
    expect(j.status).toBe(200);
    expect(JSON.parse(j.body)).toMatchObject({
      nodeId: 'n1',
      role: 'follower',
      term: 3,
      leaderId: 'n2',
      leaderAddress: 'h2:7400',
      commit: 100,
      applied: 100,
      ready: true,
    });
    const h = await get(s.port, '/', { accept: 'text/html' });
    expect(h.type).toBe('text/html; charset=utf-8');
    expect(h.body).toContain('fermata node n1');
    expect(h.body).toContain('n2 at h2:7400');
  });

  it('/ answers 500 without details when the status provider throws', async () => {
    const s = await serve(() => {
      throw new Error('secret internals');
    });
    const r = await get(s.port, '/');
    expect(r.status).toBe(500);
    expect(r.body).not.toContain('secret');
  });

  it('the HTML status page escapes what it shows', async () => {
    const s = await serve(() => ({ ...leaderStatus, nodeId: '<script>x</script>' }));
    const h = await get(s.port, '/', { accept: 'text/html' });
    expect(h.body).not.toContain('<script>');
    expect(h.body).toContain('&lt;script&gt;');
  });

  it('an unknown path is 404 and a non-GET method is 405; HEAD has no body', async () => {
    const s = await serve(() => leaderStatus);
    expect((await get(s.port, '/nope')).status).toBe(404);
    expect((await get(s.port, '/readyz', {}, 'POST')).status).toBe(405);
    const head = await get(s.port, '/readyz', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('close() frees the port', async () => {
    const s = await serve(() => leaderStatus);
    await s.close();
    servers = [];
    await expect(get(s.port, '/livez')).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('/metrics', () => {
  it('parses as Prometheus text and carries every named metric with its values', async () => {
    const metrics = new BrokerMetrics({
      queues: () => [
        { topic: 'orders', group: 'default', pending: 7, inFlight: 2 },
        { topic: 'orders', group: 'audit', pending: 3, inFlight: 0 },
      ],
      raft: () => ({
        term: 5,
        commit: 42,
        applied: 41,
        isLeader: true,
        peerRefused: { unauthenticated: 2, 'not-member': 1, 'term-bound': 0 },
        clockRefusals: { refused: 3, refusedByPeers: 0 },
      }),
    });
    metrics.publishes.inc({ topic: 'orders' }, 3);
    metrics.deliveries.inc({ topic: 'orders' });
    metrics.acks.inc({ topic: 'orders' });
    metrics.nacks.inc({ topic: 'orders' });
    metrics.expirations.inc({ topic: 'orders' });
    metrics.deadLetters.inc({ topic: 'orders' });
    metrics.deliveryLatenessMs.observe(3);
    metrics.deliveryLatenessMs.observe(700);
    metrics.leaderChanges.inc();
    metrics.fsyncDurationMs.observe(1.5);
    metrics.applyBatchEntries.observe(12);
    const s = await serve(() => leaderStatus, metrics);

    const r = await get(s.port, '/metrics');
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const { types, samples } = parsePrometheus(r.body);
    const value = (name: string, labels: Record<string, string> = {}) =>
      samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v))
        ?.value;

    expect(types.get('fermata_publishes_total')).toBe('counter');
    expect(value('fermata_publishes_total', { topic: 'orders' })).toBe(3);
    for (const n of ['deliveries', 'acks', 'nacks', 'expirations', 'dead_letters']) {
      expect(value(`fermata_${n}_total`, { topic: 'orders' }), n).toBe(1);
    }
    expect(types.get('fermata_pending_messages')).toBe('gauge');
    expect(value('fermata_pending_messages', { topic: 'orders', group: 'default' })).toBe(7);
    expect(value('fermata_pending_messages', { topic: 'orders', group: 'audit' })).toBe(3);
    expect(value('fermata_in_flight_messages', { topic: 'orders', group: 'default' })).toBe(2);
    expect(types.get('fermata_delivery_lateness_ms')).toBe('histogram');
    expect(value('fermata_delivery_lateness_ms_bucket', { le: '5' })).toBe(1);
    expect(value('fermata_delivery_lateness_ms_bucket', { le: '1000' })).toBe(2);
    expect(value('fermata_delivery_lateness_ms_count')).toBe(2);
    expect(value('fermata_raft_term')).toBe(5);
    expect(value('fermata_raft_commit_index')).toBe(42);
    expect(value('fermata_raft_applied_index')).toBe(41);
    expect(value('fermata_raft_is_leader')).toBe(1);
    expect(value('fermata_raft_leader_changes_total')).toBe(1);
    expect(types.get('fermata_raft_peer_refused_total')).toBe('counter');
    expect(value('fermata_raft_peer_refused_total', { reason: 'unauthenticated' })).toBe(2);
    expect(value('fermata_raft_peer_refused_total', { reason: 'not-member' })).toBe(1);
    expect(value('fermata_raft_peer_refused_total', { reason: 'term-bound' })).toBe(0);
    expect(types.get('fermata_raft_votes_refused_clock_total')).toBe('counter');
    expect(value('fermata_raft_votes_refused_clock_total', { refused_by: 'self' })).toBe(3);
    expect(value('fermata_raft_votes_refused_clock_total', { refused_by: 'peer' })).toBe(0);
    expect(value('fermata_fsync_duration_ms_count')).toBe(1);
    expect(value('fermata_apply_batch_entries_bucket', { le: '16' })).toBe(1);
    expect(value('process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    expect(types.has('nodejs_eventloop_lag_seconds')).toBe(true);
  });

  it('a queue the provider stops reporting disappears from the next scrape', async () => {
    let queues = [
      { topic: 'a', group: 'default', pending: 1, inFlight: 0 },
      { topic: 'b', group: 'default', pending: 2, inFlight: 0 },
    ];
    const metrics = new BrokerMetrics({ processMetrics: false, queues: () => queues });
    const s = await serve(() => leaderStatus, metrics);
    expect((await get(s.port, '/metrics')).body).toContain(
      'fermata_pending_messages{topic="b",group="default"} 2',
    );
    queues = [{ topic: 'a', group: 'default', pending: 5, inFlight: 0 }];
    const body = (await get(s.port, '/metrics')).body;
    expect(body).toContain('fermata_pending_messages{topic="a",group="default"} 5');
    expect(body).not.toContain('topic="b"');
  });

  it("fermata_oldest_overdue_seconds counts on the node's own time, not a stepped system clock", async () => {
    // The node's time (its steady clock) is an hour behind the system clock, as after a step
    // of the system clock forward: a message due 30 s ago by the node's time waits 30 s.
    const nodeNowMs = Date.now() - 3_600_000;
    const metrics = new BrokerMetrics({
      processMetrics: false,
      nowMs: () => nodeNowMs,
      queues: () => [
        { topic: 'a', group: 'default', pending: 1, inFlight: 0, nextDueMs: nodeNowMs - 30_000 },
      ],
    });
    const body = (await metrics.scrape()).body;
    expect(body).toContain('fermata_oldest_overdue_seconds{topic="a",group="default"} 30');
  });

  it('noteLeader counts each change of the known leader, the first sighting excluded', async () => {
    const metrics = new BrokerMetrics({ processMetrics: false });
    for (const leader of ['n1', 'n1', '', 'n2', 'n2', 'n1']) metrics.noteLeader(leader);
    expect((await metrics.scrape()).body).toContain('fermata_raft_leader_changes_total 3');
  });

  it('two servers in one process keep separate registries', async () => {
    const a = new BrokerMetrics();
    const b = new BrokerMetrics();
    a.publishes.inc({ topic: 't' }, 2);
    const sb = await serve(() => leaderStatus, b);
    const body = (await get(sb.port, '/metrics')).body;
    expect(body).not.toContain('fermata_publishes_total{topic="t"}');
    expect((await a.scrape()).body).toContain('fermata_publishes_total{topic="t"} 2');
  });
});

describe('HTTP endpoints with http.auth', () => {
  const MONITOR = 'monitor-secret-0123456789abcdef';
  const OPS = 'ops-secret-0123456789abcdef';
  const APP = 'app-secret-0123456789abcdef';
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const tokenFile = () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-http-auth-'));
    const path = join(dir, 'tokens.yaml');
    writeFileSync(
      path,
      `tokens:\n  - {name: prometheus, sha256: ${sha256Hex(MONITOR)}, monitor: true}\n` +
        `  - {name: ops, sha256: ${sha256Hex(OPS)}, admin: ["*"]}\n` +
        `  - {name: app, sha256: ${sha256Hex(APP)}, publish: ["*"], admin: ["app.*"]}\n`,
    );
    return path;
  };

  it('auto: the status page and /metrics need a monitoring token once a token file is set; the probes never do', async () => {
    const path = tokenFile();
    const tokens = new TokenFile(path, 0);
    const authorize = httpAuthorizer(
      loadConfig({ env: {}, overrides: { auth: { tokensFile: path } } }),
      tokens,
    );
    expect(authorize).toBeDefined();
    const s = await startHttpServer({
      listenAddress: '127.0.0.1:0',
      status: () => leaderStatus,
      registry: new BrokerMetrics({ processMetrics: false }).registry,
      readyMaxLagEntries: 10,
      ...(authorize ? { authorize } : {}),
    });
    servers.push(s);
    for (const path of ['/', '/metrics']) {
      const none = await get(s.port, path);
      expect(none.status, path).toBe(401);
      expect(JSON.parse(none.body).error).toMatch(/no token/);
      expect((await get(s.port, path, { authorization: 'Bearer wrong' })).status, path).toBe(401);
      const app = await get(s.port, path, { authorization: `Bearer ${APP}` });
      expect(app.status, path).toBe(403);
      expect(JSON.parse(app.body).error).toBe(
        'token "app" may not read this page: it needs "monitor: true", or admin or read on "*"',
      );
      expect((await get(s.port, path, { authorization: `Bearer ${MONITOR}` })).status, path).toBe(200);
      expect((await get(s.port, path, { authorization: `Bearer ${OPS}` })).status, path).toBe(200);
    }
    expect((await get(s.port, '/livez')).status).toBe(200);
    expect((await get(s.port, '/readyz')).status).toBe(200);
    tokens.close();
  });

  it('off leaves them open; on without a token file is a configuration error; auto without one is open', () => {
    const path = tokenFile();
    const tokens = new TokenFile(path, 0);
    const off = loadConfig({ env: {}, overrides: { auth: { tokensFile: path }, http: { auth: 'off' } } });
    expect(httpAuthorizer(off, tokens)).toBeUndefined();
    const noFile = new TokenFile('', 0);
    expect(httpAuthorizer(loadConfig({ env: {} }), noFile)).toBeUndefined();
    expect(securityConfigProblems(loadConfig({ env: {}, overrides: { http: { auth: 'on' } } }))).toContain(
      'http.auth is on but auth.tokensFile is not set: no token could read the status page',
    );
    tokens.close();
  });
});
