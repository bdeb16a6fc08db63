import { randomBytes } from 'node:crypto';
import { resetPassword } from '../accounts/admin-users.ts';
import { findUserByUsername } from '../accounts/user-view.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { importEvents, ImportRefused } from '../event-store/import.ts';
import type { AppDeps } from '../app-deps.ts';
import { type Progress, startProgress } from './progress.ts';

/** `import-events FILE`: an export into an empty store, then every read model rebuilt. */
export async function importEventsCommand(
  database: DatabaseHandle,
  file: string,
  expectHead?: { position: number; hash: string },
): Promise<number> {
  const loading = startProgress('import-events: load', { unit: 'events' });
  let replaying: Progress | undefined;
  let events = 0;
  try {
    const report = await importEvents(database, file, {
      ...(expectHead ? { expectHead } : {}),
      loaded: (loaded, total) => {
        if (total) loading.setTotal(total);
        loading.update((events = loaded));
      },
      replayed: (replayed) => {
        if (!replaying) {
          loading.finish();
          replaying = startProgress('import-events: rebuild', { unit: 'events', total: events });
        }
        replaying.update(replayed);
      },
    });
    loading.finish();
    replaying?.finish();
    console.log(
      `imported ${report.events} events into ${database.backend} ${database.location} (${report.seconds.toFixed(2)} s)`,
    );
    for (const table of report.tables) console.log(`  ${table.table}: ${table.rows} rows rebuilt`);
    console.log(`chain head: ${report.head.position}:${report.head.hash}`);
    console.log(
      'Passwords, second factors, sessions and evidence files are not in the log: see README, "Back up and restore".',
    );
    return 0;
  } catch (error) {
    if (error instanceof ImportRefused) {
      console.error(`REFUSED: ${error.message}; nothing was imported`);
      return 1;
    }
    throw error;
  }
}

/** `reset-password --username U`: a temporary password, printed once, that the user must change at sign-in. */
export async function resetPasswordCommand(deps: AppDeps, username: string): Promise<number> {
  const user = await findUserByUsername(deps.database.db, username);
  if (!user) {
    console.error(`no user named ${username}`);
    return 1;
  }
  const temporary = randomBytes(12).toString('base64url');
  await resetPassword(deps, user.id, temporary, { actor: 'system', requestId: 'cli-reset-password' });
  console.log(`temporary password for ${username}: ${temporary}`);
  console.log('It works once the user signs in with it; they must then choose a new one. Their sessions were ended.');
  return 0;
}
