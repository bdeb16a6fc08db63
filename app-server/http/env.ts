import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { EventStore } from '../event-store/append.ts';
import type { Logger } from '../logger.ts';

/** What every route can reach: handed in once, never module-level singletons. */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  store: EventStore;
  logger: Logger;
}

/** Hono's typed context variables. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The signed-in user's id, once authentication has run. */
    actor?: string;
  };
}
