import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{domain,projections,app-server,migrations,deploy,contract,bench}/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
