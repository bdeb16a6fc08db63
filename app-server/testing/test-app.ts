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
  const deps: AppDeps = {
    config,
    database,
    metrics,
    store: countedStore(openAppStore(database.db, config), metrics),
    logger,
    secrets: secretBox(randomBytes(32)),
    // Not started: a test runs its checks when it wants them.
    chainWatch: new ChainWatch(database.db, logger),
  };
  return { app: createApp(deps), deps, database, close: database.dispose, logLines };
}
