import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'escrow-export-mode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('export-events', () => {
  it('writes its file readable by its owner only (it holds names and e-mails), replacing a world-readable one', async () => {
    const out = join(dir, 'events.ndjson');
    writeFileSync(out, 'an older export\n', { mode: 0o644 });
    // On a PGlite store of its own on either suite: how the file is written does not depend on the backend.
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'app-server/cli/main.ts', ...args], { cwd: root, env });
    await cli('migrate'); // export-events only reads: it never migrates a new store itself
    const { stdout } = await cli('export-events', '--out', out);
    expect(stdout).toMatch(/^exported \d+ events/);
    expect(statSync(out).mode & 0o777).toBe(0o600);
  }, 120_000);
});
