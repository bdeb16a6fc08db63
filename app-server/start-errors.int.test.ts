import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/** The start-up error of a real server process never holds a secret it was given, whatever is wrong with it. */
const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'start-errors-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function start(env: Record<string, string>) {
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
  };
  delete base.DATABASE_URL;
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'app-server/main.ts'], {
    cwd: root,
    env: { ...base, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('start-up errors', () => {
  it.each([
    [
      'a SECRET_KEY that is not 64 hex characters',
      { SECRET_KEY: 'my-very-secret-key-value' },
      'my-very-secret-key-value',
      /Invalid SECRET_KEY/,
    ],
    ['a METRICS_TOKEN that is too short', { METRICS_TOKEN: 'tok3n-s3cret' }, 'tok3n-s3cret', /Invalid METRICS_TOKEN/],
    [
      'a DATABASE_URL of another scheme',
      { DATABASE_URL: 'mysql://app:db-pa55word@127.0.0.1/escrow' },
      'db-pa55word',
      /Invalid DATABASE_URL/,
    ],
    [
      'a DATABASE_URL whose server does not answer',
      { DATABASE_URL: 'postgres://app:db-pa55word@127.0.0.1:1/escrow' },
      'db-pa55word',
      /Failed to start/,
    ],
  ])(
    '%s: exits 1 without echoing it',
    (_name, env, secret, said) => {
      const { status, output } = start(env);
      expect(status).toBe(1);
      expect(output).toMatch(said);
      expect(output).not.toContain(secret);
    },
    70_000,
  );
});
