import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { type ChainEnvelope, chainHash } from '../../domain/chain.ts';
import { type DomainEvent, parseEvent, SCHEMA_VERSION, type StreamType } from '../../domain/events.ts';
import { conflict } from '../../domain/shared/errors.ts';
import type { EventMetadata, StoredEvent } from '../../domain/stored-event.ts';
import { DbRowStore } from '../../projections/db-row-store.ts';
import type { Projection } from '../../projections/projection.ts';
import type { Database } from '../db/schema.ts';

/** New events for one stream, accepted only if the stream is still at `expectedVersion` (0: a new stream). */
export interface StreamAppend {
  streamId: string;
  streamType: StreamType;
  expectedVersion: number;
  events: DomainEvent[];
}

export interface AppendOptions {
  /** Time of the append (ISO); defaults to now. */
  now?: string;
  /** Runs inside the same transaction after the events and projections are written: secrets, outbox rows. */
  alsoWrite?: (trx: Transaction<Database>, stored: StoredEvent[]) => Promise<void>;
}

export interface EventStore {
  append(appends: StreamAppend[], metadata: EventMetadata, options?: AppendOptions): Promise<StoredEvent[]>;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

/** Read models carry unique indexes as a last guard; a violation means the command would duplicate something. */
const duplicateDetail: Record<string, string> = {
  addresses_address_string_key: 'This address is already in the pool',
  users_username_unique: 'That username is taken',
  users_email_unique: 'That e-mail address is already registered',
};

function asConflict(error: unknown): unknown {
  if (!isUniqueViolation(error)) return error;
  const constraint = (error as { constraint?: string }).constraint ?? '';
  return conflict(duplicateDetail[constraint] ?? 'That would duplicate an existing record');
}

/**
 * Takes the one-row `chain_head` lock (FOR UPDATE) and returns the head. Every append takes it first, so whoever
 * holds it until commit keeps every writer of the log, and so of the read models, out; plain reads go on.
 */
export function lockChainHead(trx: Transaction<Database>): Promise<{ position: number; hash: string }> {
  return trx
    .selectFrom('chain_head')
    .select(['position', 'hash'])
    .where('id', '=', 1)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/**
 * Appends to one or more streams in ONE transaction: checks and advances every stream version, takes the chain
 * head (a row lock, so positions are gapless and in commit order), inserts the events with their hashes, runs
 * every projection on them, then `alsoWrite`. All or nothing.
 */
export function createEventStore(db: Kysely<Database>, projections: readonly Projection[]): EventStore {
  const tableSpecs = projections.flatMap((p) => p.tables);

  return {
    async append(appends, metadata, options = {}) {
      if (appends.length === 0 || appends.every((a) => a.events.length === 0)) return [];
      const occurredAt = options.now ?? new Date().toISOString();
      const validated = appends.map((a) => ({
        ...a,
        events: a.events.map((e) => parseEvent(e.type, e.data)),
      }));

      return db
        .transaction()
        .execute(async (trx) => {
          const head = await lockChainHead(trx);

          for (const a of validated) await advanceStream(trx, a);

          let { position, hash: prevHash } = head;
          const stored: StoredEvent[] = [];
          for (const a of validated) {
            a.events.forEach((event, i) => {
              position += 1;
              const envelope: ChainEnvelope = {
                position,
                event_id: randomUUID(),
                stream_id: a.streamId,
                stream_type: a.streamType,
                stream_version: a.expectedVersion + i + 1,
                type: event.type,
                schema_version: SCHEMA_VERSION,
                data: event.data,
                metadata,
                occurred_at: occurredAt,
              };
              const hash = chainHash(prevHash, envelope);
              stored.push({ ...envelope, prev_hash: prevHash, hash } as StoredEvent);
              prevHash = hash;
            });
          }

          await trx
            .insertInto('events')
            .values(
              stored.map((e) => ({
                position: e.position,
                event_id: e.event_id,
                stream_id: e.stream_id,
                stream_type: e.stream_type,
                stream_version: e.stream_version,
                type: e.type,
                schema_version: e.schema_version,
                data: JSON.stringify(e.data),
                metadata: JSON.stringify(e.metadata),
                occurred_at: e.occurred_at,
                prev_hash: e.prev_hash,
                hash: e.hash,
              })),
            )
            .execute();
          await trx.updateTable('chain_head').set({ position, hash: prevHash }).where('id', '=', 1).execute();

          const rows = new DbRowStore(trx, tableSpecs);
          for (const event of stored) {
            for (const projection of projections) {
              if (projection.handles.includes(event.type)) await projection.apply(rows, event);
            }
          }
          if (options.alsoWrite) await options.alsoWrite(trx, stored);
          return stored;
        })
        .catch((error: unknown) => {
          throw asConflict(error);
        });
    },
  };
}

async function advanceStream(trx: Transaction<Database>, a: StreamAppend): Promise<void> {
  const newVersion = a.expectedVersion + a.events.length;
  const changed = () =>
    conflict(
      `${a.streamType} ${a.streamId.split(':')[1]} was changed by another request; reload and try again`,
    );
  if (a.expectedVersion === 0) {
    try {
      await trx
        .insertInto('streams')
        .values({ stream_id: a.streamId, stream_type: a.streamType, version: newVersion })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw changed();
      throw error;
    }
    return;
  }
  const result = await trx
    .updateTable('streams')
    .set({ version: newVersion })
    .where('stream_id', '=', a.streamId)
    .where('version', '=', a.expectedVersion)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw changed();
}
