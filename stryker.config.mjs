// Mutation testing (npm run test:mutation): the domain, and the money, 2FA, chain and rate-limit modules. Not part
// of CI (too slow for every push); run it before closing an issue that touches these modules. The report is written
// to reports/mutation/ (index.html, report.json). On a shared machine keep concurrency at 1; narrow a run with
// `npm run test:mutation -- --mutate 'domain/money.ts'`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // related: false: the HTTP integration tests reach the 2FA and rate-limit modules through the app, which Vitest's
  // import graph does not follow, so "related" tests alone left them uncovered.
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: [
    'domain/**/*.ts',
    '!domain/**/*.test.ts',
    '!domain/**/test-fixtures.ts',
    // Test data (published vectors, block headers) that only tests and browser journeys read: not code to mutate.
    '!domain/**/*-fixtures.ts',
    '!domain/testing/**',
    'app-server/auth/rate-limit.ts',
    'app-server/accounts/second-factor.ts',
    'app-server/event-store/verify-chain.ts',
  ],
  coverageAnalysis: 'perTest',
  // Constants evaluated once at import (schemas, tables) would need the whole suite per mutant.
  ignoreStatic: true,
  concurrency: 1,
  timeoutMS: 60_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/report.json' },
  tempDirName: 'reports/mutation/.stryker-tmp',
  // Not copied into a run's sandbox: the reports, and the sandboxes of runs going on beside this one.
  ignorePatterns: ['/reports', '/e2e/.artifacts', '/web/dist'],
  cleanTempDir: 'always',
};
