import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { lastPositionOf } from './last-position.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(async () => t.dispose());

/** `count` events of one stream type after the last one, written as rows (nothing here reads their hashes). */
async function insertEvents(streamType: 'escrow' | 'review', count: number) {
  await sql`INSERT INTO events (position, event_id, stream_id, stream_type, stream_version, type, schema_version, data,
      metadata, occurred_at, prev_hash, hash)
    SELECT last.position + n, gen_random_uuid(), ${streamType} || ':' || gen_random_uuid(), ${streamType}, 1,
      'PlanTestEvent', 1, '{}'::jsonb, '{}'::jsonb, now(), repeat('0', 64), repeat('f', 64)
    FROM generate_series(1, ${count}) AS n, (SELECT coalesce(max(position), 0) AS position FROM events) AS last`.execute(
    t.db,
  );
}

type PlanNode = { 'Relation Name'?: string; 'Actual Rows'?: number; Plans?: PlanNode[] };
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

it('reads one index entry for the last escrow event, though the statistics were taken before any existed', async () => {
  // The statistics know only review events; then 3,000 escrow events arrive before the next ANALYZE. A session
  // lookup prepared meanwhile kept a plan that aggregated every escrow event on each signed-in request.
  await insertEvents('review', 500);
  await sql`ANALYZE events`.execute(t.db);
  await insertEvents('escrow', 3_000);

  const { rows } = await sql<{
    'QUERY PLAN': unknown;
  }>`EXPLAIN (ANALYZE, FORMAT JSON) SELECT ${lastPositionOf('escrow')} AS position`.execute(t.db);
  const explained = rows[0]!['QUERY PLAN'];
  const plan = (typeof explained === 'string' ? JSON.parse(explained) : explained) as [{ Plan: PlanNode }];
  const onEvents = nodes(plan[0].Plan).filter((node) => node['Relation Name'] === 'events');
  expect(onEvents.length).toBeGreaterThan(0);
  expect(Math.max(...onEvents.map((node) => node['Actual Rows'] ?? 0))).toBe(1);

  const [last] = (
    await sql<{ position: string | number }>`SELECT ${lastPositionOf('escrow')} AS position`.execute(t.db)
  ).rows;
  expect(Number(last!.position)).toBe(3_500);
});
