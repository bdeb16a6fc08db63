import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../domain/chain.ts';
import { pendingMigrations } from '../db/migrate.ts';
import { createEventStore } from '../event-store/append.ts';
import type { StreamAppend } from '../event-store/event-store.ts';
import { readChainHead } from '../event-store/chain-head.ts';
import { verifyChain } from '../event-store/verify-chain.ts';
import { openTestDatabase, type TestDatabase } from './test-database.ts';

const meta = { actor: 'system', request_id: 'test' };
const rateSet = (expectedVersion: number, rate_cents: number): StreamAppend => ({
  streamId: 'settings:pricing',
  streamType: 'settings',
  expectedVersion,
  events: [{ type: 'BtcRateSet', data: { rate_cents } }],
});
const mail = (t: TestDatabase) =>
  t.db
    .insertInto('mail_outbox')
    .values({ to_address: 'a@example.com', subject: 's', body: 'b' })
    .returning('id')
    .executeTakeFirstOrThrow();

/** Rows per table of the public schema, the migrator's own tables aside. */
async function rowCounts(t: TestDatabase): Promise<Record<string, number>> {
  const tables = await sql<{ tablename: string }>`
    SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_%'`.execute(t.db);
  const counts: Record<string, number> = {};
  for (const { tablename } of tables.rows) {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(tablename)}`.execute(t.db);
    counts[tablename] = rows[0]!.n;
  }
  return counts;
}

let first: TestDatabase;
let second: TestDatabase;
beforeAll(async () => {
  [first, second] = [await openTestDatabase(), await openTestDatabase()];
});
afterAll(async () => {
  await first?.dispose();
  await second?.dispose();
});

describe('a test database', () => {
  it('comes migrated, and is its own: what one test file writes, another never sees', async () => {
    expect(await pendingMigrations(first.db)).toEqual([]);
    expect(await pendingMigrations(second.db)).toEqual([]);
    await createEventStore(first.db, []).append([rateSet(0, 100)], meta);
    expect(await readChainHead(first.db)).toMatchObject({ position: 1 });
    expect(await readChainHead(second.db)).toEqual({ position: 0, hash: GENESIS_HASH });
  });

  it('is reset to what a new one holds: every table empty, ids from 1, the chain at its genesis', async () => {
    const fresh = await rowCounts(second);
    const store = createEventStore(first.db, []);
    await first.reset();
    await store.append([rateSet(0, 100)], meta);
    await store.append([rateSet(1, 200)], meta);
    await mail(first);
    expect((await mail(first)).id).toBe(2);

    await first.reset();
    expect(await rowCounts(first)).toEqual(fresh);
    expect(await readChainHead(first.db)).toEqual({ position: 0, hash: GENESIS_HASH });
    expect((await mail(first)).id).toBe(1);
    await store.append([rateSet(0, 300)], meta);
    expect(await verifyChain(first.db)).toMatchObject({ ok: true, events: 1 });
  });

  it('keeps the log append-only through a reset: an event still cannot be changed afterwards', async () => {
    await first.reset();
    await createEventStore(first.db, []).append([rateSet(0, 100)], meta);
    await first.reset();
    await createEventStore(first.db, []).append([rateSet(0, 100)], meta);
    await expect(sql`UPDATE events SET type = 'Other'`.execute(first.db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM events`.execute(first.db)).rejects.toThrow(/append-only/);
  });

  it('leaves nothing behind once disposed', async () => {
    const t = await openTestDatabase();
    await t.dispose();
    if (t.backend === 'pglite') {
      expect(existsSync(t.location)).toBe(false);
    } else {
      const names = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM pg_database WHERE datname = ${new URL(t.url!).pathname.slice(1)}`.execute(
        first.db,
      );
      expect(names.rows[0]!.n).toBe(0);
    }
  });
});
