import { defineConfig } from 'vitest/config';

/**
 * The tests that exercise the modules under mutation (stryker.config.mjs): the domain's, and those of the money,
 * 2FA, chain and rate-limit modules. The integration files run on PGlite here (or on TEST_DATABASE_URL if set,
 * which the 2FA race needs). MUTATION_SCOPE=domain keeps to the domain's own tests, for a run over domain/ alone.
 * Stryker runs the tests in worker threads, which take no V8 flags: no execArgv here.
 */
const domainOnly = process.env.MUTATION_SCOPE === 'domain';

export default defineConfig({
  test: {
    include: domainOnly
      ? ['domain/**/*.test.ts']
      : [
          'domain/**/*.test.ts',
          'app-server/auth/rate-limit.test.ts',
          'app-server/auth/rate-limit.int.test.ts',
          'app-server/auth/totp.test.ts',
          'app-server/accounts/second-factor.test.ts',
          'app-server/accounts/second-factor.int.test.ts',
          'app-server/accounts/second-factor-codes.int.test.ts',
          'app-server/http/admin-step-up.int.test.ts',
          'app-server/http/money-safety.int.test.ts',
          'app-server/event-store/event-store.int.test.ts',
          'app-server/event-store/verify-chain.int.test.ts',
          'app-server/http/tampering.int.test.ts',
        ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
