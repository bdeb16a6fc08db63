import type { Selectable } from 'kysely';
import type { UserRow } from '../projections/users/table.ts';
import type { ChainWatch } from './audit/chain-watch.ts';
import type { SecretBox } from './auth/secret-box.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { EventStore } from './event-store/event-store.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { TransparencyLog } from './transparency/transparency-log.ts';

/** What every route, service and job can reach: handed in once, never module-level singletons. */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  store: EventStore;
  logger: Logger;
  /** Seals secrets at rest (TOTP secrets). */
  secrets: SecretBox;
  /** The server's own check of the hash chain, read by /api/ready and /api/admin/chain; absent, both say 'unverified'. */
  chainWatch?: ChainWatch;
  /** Counters and gauges for /metrics; absent, the app makes its own (appends are then not counted). */
  metrics?: Metrics;
  /** The transparency log (Merkle tree, key, checkpoints); absent, its routes answer 503. */
  transparency?: TransparencyLog;
}

/**
 * The columns of the account a request acts for, read with its session on every signed-in request: what routes act
 * on. What only the account's own page shows (its times, country, phone, suspension reason) is read there: each
 * column costs the driver on every request, a time most (a Date parsed each time).
 */
export const SIGNED_IN_USER_COLUMNS = [
  'id',
  'username',
  'email',
  'email_verified',
  'full_name',
  'role',
  'is_frozen',
  'totp_enabled',
] as const;

/** The account a request acts for, as read with its session. */
export type SignedInUser = Pick<Selectable<UserRow>, (typeof SIGNED_IN_USER_COLUMNS)[number]>;
