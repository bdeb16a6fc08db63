import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressEventSchemas } from '../../domain/address/events.ts';
import { escrowEventSchemas } from '../../domain/escrow/events.ts';
import { projections } from '../../projections/registry.ts';
import { idOfStream } from '../../projections/stream-ids.ts';
import { createEventStore } from '../event-store/append.ts';
import { readLog } from '../event-store/read.ts';
import { writeEveryEventType } from '../testing/every-event-type.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { escrowEffects } from './effects.ts';
import { lettersFor, MAILED_ESCROW_EVENTS } from './notifications.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  await writeEveryEventType({ db: t.db, store: createEventStore(t.db, projections) });
});
afterAll(async () => t.dispose());

describe('The effects registered with the event store', () => {
  it('run the escrow mail on every escrow event that calls for a letter (the store skips the others)', async () => {
    const lettered = new Set<string>();
    for (const event of await readLog(t.db)) {
      if (event.stream_type !== 'escrow') continue;
      const escrow = await t.db
        .selectFrom('escrows')
        .selectAll()
        .where('id', '=', idOfStream(event.stream_id))
        .executeTakeFirstOrThrow();
      if (lettersFor(event, escrow).length) lettered.add(event.type);
    }
    const mailed = new Set<string>(MAILED_ESCROW_EVENTS);
    expect([...lettered].filter((type) => !mailed.has(type))).toEqual([]);
    // The invitation of a new escrow goes in the append's own statement: no transaction for the mail effect.
    expect(mailed.has('EscrowCreated')).toBe(false);
    expect(MAILED_ESCROW_EVENTS.every((type) => type in escrowEventSchemas)).toBe(true);
  });

  it('check the address pool on every address event', () => {
    const pool = escrowEffects('http://localhost').find((e) => e.name === 'address pool alert')!;
    expect([...pool.handles].sort()).toEqual(Object.keys(addressEventSchemas).sort());
  });
});
