import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transaction } from 'kysely';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { Database } from '../db/schema.ts';

/** A write that goes with every append made while it is in scope, in the append's own transaction. */
export interface AppendScope {
  alsoWrite: (trx: Transaction<Database>, stored: StoredEvent[]) => Promise<void>;
}

/**
 * What a request attaches to the appends it makes, without every command handler passing it along: the HTTP
 * layer's Idempotency-Key records that its command committed, and its answer, in the transaction of the events.
 */
export const appendScope = new AsyncLocalStorage<AppendScope>();
