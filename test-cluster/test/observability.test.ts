/**
 * deploy/observability: the alert rules pass `promtool check rules` and their
 * unit tests (`promtool test rules`), the Grafana dashboard is well formed,
 * every series the dashboard and the alerts name is one a real node exports
 * on /metrics, and the servicemonitor component carries the same rules and
 * dashboard.
 *
 * promtool comes from Debian's `prometheus` package (.ci/run installs it). Under
 * CI=true a missing promtool fails; elsewhere those two tests skip, saying so.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FermataClient, silentLogger } from '@fermata/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Cluster, REPO_ROOT, startCluster } from '../src/index.js';

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const DIR = join(REPO_ROOT, 'deploy/observability');
const run = promisify(execFile);

interface Target {
  refId: string;
  expr: string;
  datasource?: { uid?: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type?: string; uid?: string };
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: Target[];
}
interface Dashboard {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: { name: string; query?: unknown; definition?: string }[] };
}
interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const dashboard = JSON.parse(readFileSync(join(DIR, 'fermata-dashboard.json'), 'utf8')) as Dashboard;
const rules = (
  parse(readFileSync(join(DIR, 'fermata-alerts.yaml'), 'utf8')) as { groups: { rules: Rule[] }[] }
).groups.flatMap((g) => g.rules);
const queryPanels = dashboard.panels.filter((p) => p.type !== 'row');

/** Series the disk alert reads from the kubelet (the nodes do not export disk usage). */
const KUBELET_SERIES = new Set([
  'kubelet_volume_stats_available_bytes',
  'kubelet_volume_stats_capacity_bytes',
]);

const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/**
 * The series names a PromQL expression reads: identifiers left once strings,
 * label matchers, range selectors, grouping lists, Grafana variables and
 * function calls are taken out.
 */
export function seriesNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\w+/g, ' ');
  const names = new Set<string>();
  for (const m of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*(?=\s*(\()?)/g)) {
    if (m[1] !== undefined || PROMQL_WORDS.has(m[0].toLowerCase())) continue;
    names.add(m[0]);
  }
  return [...names];
}

/** Every series name in a Prometheus text exposition (histograms with their _bucket, _sum and _count). */
function exportedSeries(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) {
      const [, name, kind] = type as unknown as [string, string, string];
      names.add(name);
      if (kind === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name + s);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/.exec(line);
    if (sample) names.add(sample[1]!);
  }
  return names;
}

function promtool(ctx: { skip: (note: string) => void }): boolean {
  try {
    execFileSync('promtool', ['--version'], { stdio: 'pipe' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    if (process.env['CI'] === 'true') {
      throw new Error('promtool is not installed; .ci/run installs it (Debian package prometheus)');
    }
    ctx.skip('promtool is not installed (apt-get install prometheus); the rules are not checked by it here');
    return false;
  }
}

describe('alert rules', () => {
  it('pass promtool check rules', async (ctx) => {
    if (!promtool(ctx)) return;
    const { stdout } = await run('promtool', ['check', 'rules', 'fermata-alerts.yaml'], { cwd: DIR });
    expect(stdout).toContain(`SUCCESS: ${rules.length} rules found`);
  });

  it('fire in their promtool unit tests on the series that should raise them, and only there', async (ctx) => {
    if (!promtool(ctx)) return;
    const { stdout } = await run('promtool', ['test', 'rules', 'fermata-alerts.test.yaml'], { cwd: DIR });
    expect(stdout).toContain('SUCCESS');
    const tests = readFileSync(join(DIR, 'fermata-alerts.test.yaml'), 'utf8');
    for (const rule of rules)
      expect(tests, `a unit test of ${rule.alert}`).toContain(`alertname: ${rule.alert}`);
  });

  it('cover no leader, follower lag, lateness p99, disk nearly full, dead letters and overdue messages, each with a severity and summary', () => {
    const names = rules.map((r) => r.alert);
    for (const name of [
      'FermataNoLeader',
      'FermataFollowerLagging',
      'FermataDeliveryLate',
      'FermataDiskNearlyFull',
      'FermataDeadLettersRising',
      'FermataMessagesOverdue',
    ]) {
      expect(names).toContain(name);
    }
    for (const r of rules) {
      expect(['critical', 'warning'], r.alert).toContain(r.labels?.['severity']);
      expect(r.annotations?.['summary'], r.alert).toBeTruthy();
      expect(r.annotations?.['description'], r.alert).toBeTruthy();
    }
  });
});

describe('the dashboard', () => {
  it('has unique panel ids, panels inside the 24-column grid, and a query in every panel', () => {
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of dashboard.panels) {
      expect(p.gridPos.x + p.gridPos.w, p.title).toBeLessThanOrEqual(24);
      expect(p.title, `panel ${p.id}`).toBeTruthy();
    }
    expect(queryPanels.length).toBeGreaterThan(10);
    for (const p of queryPanels) {
      expect(p.targets?.length, p.title).toBeGreaterThan(0);
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a template
      expect(p.datasource?.uid, p.title).toBe('${datasource}');
      for (const t of p.targets ?? []) expect(t.expr.trim(), `${p.title} ${t.refId}`).not.toBe('');
    }
  });

  it('uses only the variables it defines', () => {
    const defined = new Set(dashboard.templating.list.map((v) => v.name));
    const builtin = new Set(['__rate_interval', '__interval', '__range']);
    const used = JSON.stringify(dashboard.panels).matchAll(/\$\{?(\w+)/g);
    for (const [, name] of used) expect(defined.has(name!) || builtin.has(name!), `$${name}`).toBe(true);
  });

  it('shows rates, lateness, pending and in flight, Raft term, leader changes and commit lag, fsync and event-loop lag', () => {
    const named = new Set(queryPanels.flatMap((p) => (p.targets ?? []).flatMap((t) => seriesNames(t.expr))));
    for (const series of [
      'fermata_publishes_total',
      'fermata_deliveries_total',
      'fermata_delivery_lateness_ms_bucket',
      'fermata_pending_messages',
      'fermata_in_flight_messages',
      'fermata_raft_term',
      'fermata_raft_leader_changes_total',
      'fermata_raft_commit_index',
      'fermata_raft_applied_index',
      'fermata_fsync_duration_ms_bucket',
      'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect(named, series).toContain(series);
    }
  });
});

describe('series named by the dashboard and the alerts', () => {
  let cluster: Cluster;
  let exported: Set<string>;

  beforeAll(async () => {
    cluster = await startCluster({ nodes: 1 });
    const node = await cluster.waitForLeader();
    exported = exportedSeries(await (await fetch(`${node.httpUrl}/metrics`)).text());
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('the name reader finds series and leaves out functions, labels and keywords', () => {
    expect(
      seriesNames(
        'histogram_quantile(0.99, sum by (le) (rate(fermata_x_bucket{job=~"$job"}[5m]))) - on (job) group_right fermata_y > 1',
      ).sort(),
    ).toEqual(['fermata_x_bucket', 'fermata_y']);
  });

  it('every dashboard query reads only series a node exports', () => {
    expect(exported.has('fermata_raft_term')).toBe(true);
    for (const p of queryPanels) {
      for (const t of p.targets ?? []) {
        const names = seriesNames(t.expr);
        expect(names.length, `${p.title}: ${t.expr}`).toBeGreaterThan(0);
        for (const name of names) expect(exported.has(name), `${p.title}: ${name}`).toBe(true);
      }
    }
  });

  it('fermata_oldest_overdue_seconds grows while due messages wait for a consumer, and drops to 0 once taken', {
    timeout: 60_000,
  }, async () => {
    const node = await cluster.waitForLeader();
    const client = new FermataClient({ endpoints: [node.clientAddress], logger: silentLogger });
    try {
      await client.createTopic('overdue');
      await client.createGroup('overdue', 'billing');
      await client.publish('overdue', 'due now');
      const overdue = async (group: string) => {
        const text = await (await fetch(`${node.httpUrl}/metrics`)).text();
        const line = text
          .split('\n')
          .find((l) => l.startsWith(`fermata_oldest_overdue_seconds{topic="overdue",group="${group}"}`));
        return line === undefined ? undefined : Number(line.split(' ').pop());
      };
      // Nobody consumes either group: both wait, longer at each scrape.
      await waitUntil(async () => ((await overdue('billing')) ?? 0) >= 1, 30_000);
      const first = (await overdue('billing'))!;
      await new Promise((r) => setTimeout(r, 1_500));
      expect((await overdue('billing'))!).toBeGreaterThan(first);
      // The default group's consumer takes its copy: its gauge drops to 0, billing's keeps growing.
      const got = await new Promise<string>((resolve) => {
        client.subscribe('overdue', async (m) => resolve(m.text()));
      });
      expect(got).toBe('due now');
      await waitUntil(async () => (await overdue('default')) === 0, 30_000);
      expect((await overdue('billing'))!).toBeGreaterThan(first);
    } finally {
      await client.close();
    }
  });

  it('every alert reads series a node exports (the disk alert: the kubelet volume statistics)', () => {
    for (const r of rules) {
      for (const name of seriesNames(r.expr)) {
        expect(exported.has(name) || KUBELET_SERIES.has(name), `${r.alert}: ${name}`).toBe(true);
      }
    }
  });
});

describe('the servicemonitor component', () => {
  it('holds the PrometheusRule and dashboard ConfigMap made from deploy/observability (up to date)', () => {
    expect(() =>
      execFileSync(process.execPath, [join(REPO_ROOT, 'scripts/gen-observability.mjs'), '--check'], {
        stdio: 'pipe',
      }),
    ).not.toThrow();
    const component = join(REPO_ROOT, 'deploy/k8s/components/servicemonitor');
    const kustomization = parse(readFileSync(join(component, 'kustomization.yaml'), 'utf8')) as {
      resources: string[];
    };
    expect(kustomization.resources).toEqual(
      expect.arrayContaining(['servicemonitor.yaml', 'prometheusrule.yaml', 'dashboard-configmap.yaml']),
    );
    const rule = parse(readFileSync(join(component, 'prometheusrule.yaml'), 'utf8')) as {
      spec: { groups: unknown };
    };
    expect(rule.spec.groups).toEqual(parse(readFileSync(join(DIR, 'fermata-alerts.yaml'), 'utf8')).groups);
    const map = parse(readFileSync(join(component, 'dashboard-configmap.yaml'), 'utf8')) as {
      metadata: { labels: Record<string, string> };
      data: Record<string, string>;
    };
    expect(map.metadata.labels['grafana_dashboard']).toBe('1');
    expect(JSON.parse(map.data['fermata-dashboard.json']!)).toEqual(dashboard);
  });
});
