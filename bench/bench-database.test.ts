import { afterEach, describe, expect, it } from 'vitest';
import { withBenchDatabase } from './bench-database.ts';

const saved = process.env.BENCH_DATABASE_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.BENCH_DATABASE_URL;
  else process.env.BENCH_DATABASE_URL = saved;
});

describe('withBenchDatabase', () => {
  it('takes the backend from its caller only: no default parameter for `undefined` to fall back to', () => {
    // run.ts's PGlite pass once passed `undefined`, which took the default (the environment's PostgreSQL URL).
    expect(withBenchDatabase.length).toBe(2);
  });

  it('measures PGlite in the PGlite pass whatever BENCH_DATABASE_URL says', async () => {
    // A server nobody answers on: asking it for anything would fail the test.
    process.env.BENCH_DATABASE_URL = 'postgres://nobody@127.0.0.1:1/nothing';
    expect(await withBenchDatabase(async (handle, url) => [handle.backend, url], null)).toEqual(['pglite', undefined]);
  });
});
