import type { Transaction } from 'kysely';
import type { StoredEvent } from '../../domain/stored-event.ts';
import { idOfStream } from '../../projections/stream-ids.ts';
import type { Database } from '../db/schema.ts';

/**
 * The escrow's row as an escrow event left it, read inside the transaction that appends the event (the read models
 * are updated there already); undefined when there is none.
 */
export const escrowOfEvent = (trx: Transaction<Database>, event: Pick<StoredEvent, 'stream_id'>) =>
  trx.selectFrom('escrows').selectAll().where('id', '=', idOfStream(event.stream_id)).executeTakeFirst();
