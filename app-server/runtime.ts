import { ChainWatch } from './audit/chain-watch.ts';
import { secretBox } from './auth/secret-box.ts';
import { loadSecretKey } from './auth/secret-key.ts';
import type { Config } from './config.ts';
import { type DatabaseHandle, type DatabaseOptions, openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { openAppStore } from './app-store.ts';
import type { AppDeps } from './app-deps.ts';
import type { Logger } from './logger.ts';
import { countedStore } from './metrics/counted-store.ts';
import { createMetrics } from './metrics/metrics.ts';
import { TransparencyLog, treeKeptStore } from './transparency/transparency-log.ts';

/** Opens the configured database, applies migrations and wires the event store with every projection. */
export async function openRuntime(
  config: Config,
  logger: Logger,
  options: Pick<DatabaseOptions, 'pgliteSharedBuffers'> = {},
): Promise<AppDeps> {
  const database: DatabaseHandle = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DB_POOL_SIZE,
    ...options,
  });
  if (database.backend === 'pglite') {
    logger.info(
      { backend: 'pglite', path: database.location },
      `Using embedded PostgreSQL (PGlite) at ${database.location}`,
    );
  } else {
    logger.info({ backend: 'postgres', url: database.location }, `Using PostgreSQL at ${database.location}`);
  }
  const applied = await migrateToLatest(database.db);
  if (applied.length) logger.info({ migrations: applied }, `Applied ${applied.length} migration(s)`);
  const { key, source } = loadSecretKey(config.SECRET_KEY, config.DATA_DIR);
  logger.debug({ secret_key: source }, `Secrets at rest are sealed with the key from ${source}`);
  const metrics = createMetrics();
  const transparency = TransparencyLog.fromConfig(config, database, logger);
  logger.debug({ log_signing_key: transparency.vkey }, 'Transparency log checkpoints are signed by this key');
  return {
    config,
    database,
    metrics,
    store: treeKeptStore(countedStore(openAppStore(database.db, config), metrics), transparency),
    transparency,
    logger,
    secrets: secretBox(key),
    chainWatch: new ChainWatch(database.db, logger),
  };
}
