import type { Kysely, Transaction } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- projection tables are named at run time by their specs, so rows are untyped here.
type Untyped = any;

/** A database handle for tables named at run time (projection specs, replay's scratch schema). */
export type DynamicDb = Kysely<Untyped>;
export type DynamicTransaction = Transaction<Untyped>;
