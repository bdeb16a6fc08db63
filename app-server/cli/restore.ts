import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resetPassword } from '../accounts/admin-users.ts';
import { findUserByUsername } from '../accounts/user-view.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { importEvents, ImportRefused } from '../event-store/import.ts';
import type { AppDeps } from '../app-deps.ts';

/** `import-events FILE`: an export into an empty store, then every read model rebuilt. */
export async function importEventsCommand(database: DatabaseHandle, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { 'expect-head': { type: 'string' } } });
  const file = positionals[0];
  if (!file) {
    console.error('Usage: npm run cli -- import-events FILE [--expect-head POSITION:HASH]');
    return 2;
  }
  const [position, hash] = (values['expect-head'] ?? '').split(':');
  const expectHead = values['expect-head'] ? { position: Number(position), hash: hash ?? '' } : undefined;
  try {
    const report = await importEvents(database, file, expectHead ? { expectHead } : {});
    console.log(`imported ${report.events} events into ${database.backend} ${database.location} (${report.seconds.toFixed(2)} s)`);
    for (const table of report.tables) console.log(`  ${table.table}: ${table.rows} rows rebuilt`);
    console.log(`chain head: ${report.head.position}:${report.head.hash}`);
    console.log('Passwords, second factors, sessions and evidence files are not in the log: see README, "Back up and restore".');
    return 0;
  } catch (error) {
    if (error instanceof ImportRefused) {
      console.error(`REFUSED: ${error.message}; nothing was imported`);
      return 1;
    }
    throw error;
  }
}

const stamp = (at: Date) => at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

/** `backup --out DIR`: PGlite's data directory as one gzipped tarball, taken by the database itself. */
export async function backupCommand(database: DatabaseHandle, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { out: { type: 'string' } } });
  if (!values.out) {
    console.error('Usage: npm run cli -- backup --out DIR');
    return 2;
  }
  if (!database.dumpDataDir) {
    console.error('backup copies PGlite files; on PostgreSQL use pg_dump (see README, "Back up and restore")');
    return 2;
  }
  mkdirSync(values.out, { recursive: true });
  const file = resolve(join(values.out, `escrow-pglite-${stamp(new Date())}.tar.gz`));
  const blob = await database.dumpDataDir();
  writeFileSync(file, Buffer.from(await blob.arrayBuffer()), { mode: 0o600 });
  console.log(`backup: ${file} (${blob.size} bytes)`);
  console.log(`restore: stop the server, then: mkdir -p NEW_DATA_DIR/pglite && tar -xzf ${file} -C NEW_DATA_DIR/pglite`);
  console.log('Keep a copy of the key that seals TOTP secrets (SECRET_KEY, or DATA_DIR/secret.key) apart from this file.');
  return 0;
}

/** `reset-password --username U`: a temporary password, printed once, that the user must change at sign-in. */
export async function resetPasswordCommand(deps: AppDeps, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { username: { type: 'string' } } });
  if (!values.username) {
    console.error('Usage: npm run cli -- reset-password --username U');
    return 2;
  }
  const user = await findUserByUsername(deps.database.db, values.username);
  if (!user) {
    console.error(`no user named ${values.username}`);
    return 1;
  }
  const temporary = randomBytes(12).toString('base64url');
  await resetPassword(deps, user.id, temporary, { actor: 'system', requestId: 'cli-reset-password' });
  console.log(`temporary password for ${values.username}: ${temporary}`);
  console.log('It works once the user signs in with it; they must then choose a new one. Their sessions were ended.');
  return 0;
}
