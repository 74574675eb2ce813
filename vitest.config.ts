import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two groups, one after the other (docs/development.md, "Tests"):
// - in-process: the packages' tests that start no process and listen on no
//   socket (scripts/vitest-in-process.ts makes both throw there), as many
//   files at a time as the machine has cores, sharing each worker's modules;
// - serial: the packages' *.serial.test.ts, test-cluster/ and scripts/, whose
//   nodes, clusters and containers need the machine to themselves: one file
//   at a time.
const serialInPackages = 'packages/*/test/**/*.serial.test.ts';

export default defineConfig({
  resolve: { conditions: ['fermata-source'] },
  ssr: { resolve: { conditions: ['fermata-source'] } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'in-process',
          include: ['packages/*/test/**/*.test.ts'],
          exclude: [serialInPackages],
          setupFiles: ['scripts/vitest-in-process.ts'],
          isolate: false,
          maxWorkers: Math.max(2, availableParallelism()),
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'serial',
          include: [serialInPackages, 'test-cluster/**/*.test.ts', 'scripts/**/*.test.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
