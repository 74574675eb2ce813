/**
 * Cluster: every member as the answering node sees it (`Cluster/GetClusterInfo`:
 * role, match index, lag; term, commit and applied index of this node), this
 * node's readiness (`/readyz`), and charts of this node's publish, delivery
 * and ack rates and delivery lateness p50/p99 from `/metrics` samples taken
 * every 5 s while the page is open (an hour at most).
 */
import uPlot from 'uplot';
import { ApiError, metricsText, readiness, rpc } from '../api.js';
import { h, replace, table } from '../dom.js';
import { latenessQuantile, parseMetrics, rate, type Sample } from '../metrics.js';
import type { ClusterInfo } from '../types.js';
import { enumText, num } from '../types.js';
import { errorBox, type Page } from './page.js';

const SAMPLE_EVERY_MS = 5_000;
const KEEP_SAMPLES = 720;
/** A member this many entries behind the leader's log is shown as lagging. */
const LAGGING_ENTRIES = 1000;

export const clusterPage: Page = (root) => {
  const members = h('section', { id: 'members' }, h('p', {}, 'Loading…'));
  const charts = h('section', { id: 'charts' });
  replace(
    root,
    h('h1', {}, 'Cluster'),
    members,
    h('h2', {}, 'This node, while this page is open'),
    h(
      'p',
      { class: 'hint' },
      'Sampled from this node’s /metrics every 5 s. Deliveries and acks are counted by the leader: open the console on the leader to see them.',
    ),
    charts,
  );
  const samples: Sample[] = [];
  const rates = new Chart(charts, 'Messages per second', ['published', 'delivered', 'acked']);
  const lateness = new Chart(charts, 'Delivery lateness (ms)', ['p50', 'p99']);
  const chartError = h('div');
  charts.append(chartError);
  let stopped = false;

  async function tick(): Promise<void> {
    await Promise.all([drawMembers(members), sample()]);
  }

  async function sample(): Promise<void> {
    try {
      const s = parseMetrics(await metricsText(), Date.now());
      samples.push(s);
      if (samples.length > KEEP_SAMPLES) samples.shift();
      replace(chartError);
    } catch (err) {
      replace(chartError, errorBox(err));
      return;
    }
    const pairs = samples.slice(1).map((b, i) => [samples[i] as Sample, b] as const);
    const xs = pairs.map(([, b]) => b.atMs / 1000);
    rates.set([
      xs,
      pairs.map(([a, b]) => rate(a, b, 'fermata_publishes_total')),
      pairs.map(([a, b]) => rate(a, b, 'fermata_deliveries_total')),
      pairs.map(([a, b]) => rate(a, b, 'fermata_acks_total')),
    ]);
    lateness.set([
      xs,
      pairs.map(([a, b]) => latenessQuantile(a, b, 0.5)),
      pairs.map(([a, b]) => latenessQuantile(a, b, 0.99)),
    ]);
  }

  const timer = setInterval(() => {
    if (!stopped) void tick();
  }, SAMPLE_EVERY_MS);
  void tick();
  return () => {
    stopped = true;
    clearInterval(timer);
    rates.destroy();
    lateness.destroy();
  };
};

async function drawMembers(el: HTMLElement): Promise<void> {
  let info: ClusterInfo;
  let ready: { ready: boolean; reason?: string };
  try {
    [info, ready] = await Promise.all([rpc<ClusterInfo>('Cluster', 'GetClusterInfo'), readiness()]);
  } catch (err) {
    if (err instanceof ApiError && err.httpStatus === 401) return;
    replace(el, errorBox(err));
    return;
  }
  const summary = table(
    ['cluster', 'this node', 'leader', 'term', 'commit index', 'applied index', 'ready'],
    [
      [
        info.clusterId,
        info.nodeId,
        info.leaderId || '(none known)',
        info.term,
        info.commitIndex,
        info.appliedIndex,
        ready.ready ? 'yes' : `no: ${ready.reason ?? ''}`,
      ],
    ],
    { id: 'node-summary' },
  );
  const rows = info.members.map((m) => {
    const role = enumText(m.role, 'MEMBER_ROLE_');
    const health = role === 'unreachable' ? 'unreachable' : num(m.lag) > LAGGING_ENTRIES ? 'lagging' : 'ok';
    return [
      m.id,
      h('span', { class: `role role-${role.replaceAll(' ', '-')}` }, role),
      m.voter ? 'voter' : 'learner',
      m.address,
      m.matchIndex,
      m.lag,
      h('span', { class: `health health-${health}` }, health),
    ];
  });
  replace(
    el,
    summary,
    h('h2', {}, 'Members'),
    table(['id', 'role', 'kind', 'client address', 'match index', 'lag (entries)', 'health'], rows, {
      id: 'members-table',
    }),
  );
}

/** A uPlot line chart of time and `series`, redrawn with each sample. */
class Chart {
  private readonly plot: uPlot;

  constructor(parent: HTMLElement, title: string, series: readonly string[]) {
    const box = h('div', { class: 'chart' });
    parent.append(box);
    const colours = ['#2a6fdb', '#d9822b', '#2b9348'];
    this.plot = new uPlot(
      {
        title,
        width: 560,
        height: 220,
        series: [{}, ...series.map((label, i) => ({ label, stroke: colours[i % colours.length], width: 2 }))],
        axes: [{}, { size: 60 }],
      },
      [[], ...series.map(() => [])],
      box,
    );
  }

  set(data: (number | null)[][]): void {
    this.plot.setData(data as uPlot.AlignedData);
  }

  destroy(): void {
    this.plot.destroy();
  }
}
