import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      '{domain,projections,app-server,migrations,deploy,contract,bench}/**/*.test.ts',
      'web/src/**/*.test.{ts,tsx}',
    ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core. Vitest's default keeps one core for itself, which on a 2-core machine is one file at a
    // time: the whole suite took 304 s on PGlite that way and 202 s with both cores (the main process mostly waits).
    maxWorkers: availableParallelism(),
    // Prints the backend of the run (and starts the one container of a run that uses one).
    globalSetup: ['app-server/testing/global-setup.ts'],
    // Each test file's process compiles PGlite's 10 MB of WebAssembly: with V8's baseline compiler only, opening the
    // first database of a file took 3.9 s of CPU instead of 7.1 s (the optimising tier recompiled it all in the
    // background), and the queries of a test run no slower for it.
    execArgv: ['--liftoff-only'],
  },
});
