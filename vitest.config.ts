import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['fermata-source'] },
  ssr: { resolve: { conditions: ['fermata-source'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test-cluster/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
