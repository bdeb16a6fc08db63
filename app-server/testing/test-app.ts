import { randomBytes } from 'node:crypto';
import { ChainWatch } from '../audit/chain-watch.ts';
import { secretBox } from '../auth/secret-box.ts';
import { loadConfig } from '../config.ts';
import { openAppStore } from '../app-store.ts';
import { createApp } from '../http/app.ts';
import type { AppDeps } from '../app-deps.ts';
import { createLogger } from '../logger.ts';
import { countedStore } from '../metrics/counted-store.ts';
import { createMetrics } from '../metrics/metrics.ts';
import { openTestDatabase, type TestDatabase } from './test-database.ts';
import { newSeed } from '../../domain/transparency/note.ts';
import { TransparencyLog, transparencyOrigin, treeKeptStore } from '../transparency/transparency-log.ts';

export interface TestApp {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  database: TestDatabase;
  close: () => Promise<void>;
  /** Every log line the app wrote, as JSON text. */
  logLines: string[];
}

/** The real app on a fresh test database, called through `app.request()`: no port, no network. */
export async function openTestApp(env: NodeJS.ProcessEnv = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  const logLines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void logLines.push(line) });
  const metrics = createMetrics();
  // Admins in tests have no 2FA unless a test switches it on: ADMIN_2FA_REQUIRED is off here, except in the tests
  // about admin powers, which pass ADMIN_2FA_REQUIRED=true and send codes (admin-step-up.int.test.ts).
  const config = loadConfig({ PASSWORD_HASH_COST: '10', ADMIN_2FA_REQUIRED: 'false', ...env });
  // A key of its own per test app; the tree follows every append as it does in the server.
  const transparency = new TransparencyLog(database, logger, {
    origin: transparencyOrigin(config),
    key: { seed: newSeed(), source: 'test' },
    intervalS: config.CHECKPOINT_INTERVAL_S,
  });
  const deps: AppDeps = {
    config,
    database,
    metrics,
    store: treeKeptStore(countedStore(openAppStore(database.db, config), metrics), transparency),
    transparency,
    logger,
    secrets: secretBox(randomBytes(32)),
    // Not started: a test runs its checks when it wants them.
    chainWatch: new ChainWatch(database.db, logger),
  };
  const close = async () => {
    await transparency.idle();
    await database.dispose();
  };
  return { app: createApp(deps), deps, database, close, logLines };
}
