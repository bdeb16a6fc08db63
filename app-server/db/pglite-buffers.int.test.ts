import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;

/**
 * PGlite's buffer cache on a store in files: PostgreSQL's default for the server, the smaller one the CLI asks for.
 * Checked in a process of its own, as the server and the CLI run: under the test runner's module loader PGlite keeps
 * its configuration file's value whatever it is started with.
 */
describe('PGlite shared_buffers', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'escrow-buffers-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const bufferCacheOf = async (pgliteSharedBuffers?: string) => {
    const script = `import { sql } from 'kysely';
import { openDatabase } from './app-server/db/database.ts';
const d = await openDatabase({ dataDir: ${JSON.stringify(dataDir)}, ${pgliteSharedBuffers ? `pgliteSharedBuffers: ${JSON.stringify(pgliteSharedBuffers)}` : ''} });
console.log((await sql\`SHOW shared_buffers\`.execute(d.db)).rows[0].shared_buffers);
await d.close();`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: root },
    );
    return stdout.trim();
  };

  it('is 128MB unless asked, and what was asked otherwise', async () => {
    expect(await bufferCacheOf()).toBe('128MB');
    expect(await bufferCacheOf('32MB')).toBe('32MB');
  }, 60_000);
});
