/** Samples which node leads, every `intervalMs`, from every node's status page. */
import type { LeaderSample } from './checker.js';
import type { ContainerCluster } from './container-cluster.js';

export const LEADER_SAMPLE_INTERVAL_MS = 100;

export class LeaderMonitor {
  readonly samples: LeaderSample[] = [];
  private running = true;
  private readonly loop: Promise<void>;

  constructor(
    private readonly cluster: ContainerCluster,
    private readonly intervalMs = LEADER_SAMPLE_INTERVAL_MS,
  ) {
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (this.running) {
      const atMs = Date.now();
      const statuses = await Promise.all(this.cluster.nodes.map((n) => this.cluster.status(n.index)));
      const leaders = statuses.filter((s) => s?.role === 'leader').map((s) => s?.nodeId as string);
      this.samples.push({ atMs, leaders });
      await new Promise((r) => setTimeout(r, Math.max(0, this.intervalMs - (Date.now() - atMs))));
    }
  }

  async stop(): Promise<LeaderSample[]> {
    this.running = false;
    await this.loop;
    return this.samples;
  }
}
