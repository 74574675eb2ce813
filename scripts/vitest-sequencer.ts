// The order in which vitest starts test files (vitest.config.ts `sequence.sequencer`).
// vitest starts the files it has timings of longest first, and the others largest
// first. On a fresh clone it has none, so the in-process group's longest files (the
// simulators' seed runs, small files that loop for minutes) started last and ran alone
// at the end, one core idle. This sequencer gives those files the seconds they took on
// CI (scripts/test-durations.json) when vitest has no timing of its own for them.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { TestSpecification } from 'vitest/node';
import { BaseSequencer } from 'vitest/node';

interface Durations {
  readonly [project: string]: Readonly<Record<string, number>> | string;
}

const durations = JSON.parse(
  readFileSync(join(import.meta.dirname, 'test-durations.json'), 'utf8'),
) as Durations;

export default class Sequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const cache = this.ctx.cache;
    const known = (f: TestSpecification): number | undefined => {
      const path = relative(root, f.moduleId);
      if (cache.getFileTestResults(`${f.project.name}:${path}`)) return undefined;
      const table = durations[f.project.name];
      return typeof table === 'object' ? table[path] : undefined;
    };
    // Within a project, files with a known duration first, longest first; the rest keep vitest's order.
    const rank = new Map<string, number>();
    for (const [i, f] of sorted.entries()) if (!rank.has(f.project.name)) rank.set(f.project.name, i);
    return sorted
      .map((f, i) => ({ f, i, p: rank.get(f.project.name) ?? 0, s: known(f) ?? -1 }))
      .sort((a, b) => a.p - b.p || b.s - a.s || a.i - b.i)
      .map((x) => x.f);
  }
}
