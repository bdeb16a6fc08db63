import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Aggregate, escrowAggregate, settingsAggregate } from '../domain/aggregates.ts';
import { DomainError } from '../domain/shared/errors.ts';
import { projections } from '../projections/registry.ts';
import { executeCommand } from './commands/execute.ts';
import { createEventStore, type EventStore } from './event-store/append.ts';
import { replayProjections } from './replay.ts';
import { randomCommands, setupCommands } from './testing/command-arbitrary.ts';
import { openTestDatabase, type TestDatabase } from './testing/test-database.ts';

let t: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  t = await openTestDatabase();
  store = createEventStore(t.db, projections);
});
beforeEach(async () => t.reset());
afterAll(async () => t.dispose());

const START = Date.parse('2026-03-01T00:00:00.000Z');
const run = <S, C>(aggregate: Aggregate<S, C>, id: string, command: C, actor = 'system', minute = 0) =>
  executeCommand({ db: t.db, store }, aggregate, id, command, {
    actor,
    requestId: 'test',
    now: new Date(START + minute * 60_000).toISOString(),
  });

const ESCROW = '0b1c2d3e-0000-4000-8000-000000000001';
const USER = '0b1c2d3e-0000-4000-8000-000000000002';

async function aDeal() {
  await run(settingsAggregate, 'pricing', { type: 'setPricing', rate_cents: 5_000_000, fee_bps: 150 });
  await run(
    escrowAggregate,
    ESCROW,
    {
      type: 'create',
      by: 'buyer',
      escrow_id: ESCROW,
      created_by: USER,
      creator_side: 'buyer',
      creator_email: 'b@example.com',
      counterparty_email: 's@example.com',
      product_service: 'Bike',
      description: 'Road bike',
      amount_cents: 50_000,
      deadline_days: 7,
      pricing: { rate_cents: 5_000_000, fee_bps: 150 },
    },
    USER,
  );
  await run(escrowAggregate, ESCROW, { type: 'freeze', by: 'admin', reason: 'Check' });
}

describe('replay', () => {
  it('rebuilds the read models from the log and finds them equal to the live ones', async () => {
    await aDeal();
    const report = await replayProjections(t.db);
    expect(report.events).toBe(3);
    expect(report.match).toBe(true);
    expect(report.tables.find((x) => x.table === 'escrows')).toMatchObject({
      liveRows: 1,
      rebuiltRows: 1,
      match: true,
    });
    // The scratch schema is gone afterwards.
    const schemas = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = 'projection_replay'`.execute(t.db);
    expect(schemas.rows[0]!.n).toBe(0);
  });

  it('reports a read model row that no event explains', async () => {
    await aDeal();
    await sql`UPDATE escrows SET status = 'released'`.execute(t.db);
    const report = await replayProjections(t.db);
    expect(report.match).toBe(false);
    const escrows = report.tables.find((x) => x.table === 'escrows')!;
    expect(escrows.match).toBe(false);
    expect(escrows.onlyLive[0]).toMatchObject({ id: ESCROW, status: 'released' });
    expect(escrows.onlyRebuilt[0]).toMatchObject({ id: ESCROW, status: 'frozen' });
  });

  it('matches the live read models after any sequence of commands', async () => {
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(randomCommands(40), async (commands) => {
        await t.reset();
        for (const c of [...setupCommands(), ...commands]) {
          try {
            await run(c.aggregate, c.id, c.command, c.actor, c.minute);
            accepted++;
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
            refused++;
          }
        }
        const report = await replayProjections(t.db);
        expect(report.tables.filter((x) => !x.match)).toEqual([]);
      }),
      { numRuns: 25 },
    );
    // The generator must reach real histories, not only refusals.
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(0);
  });
});
