import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../projections/registry.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { createEventStore } from './append.ts';
import type { StreamAppend } from './event-store.ts';
import { eventLineSql, exportChunks, exportEvents } from './export.ts';

let database: TestDatabase;

/** A new review's stream with its one event; `data` changes what the reviewer wrote. */
function reviewAppend(data: { name: string; country?: string; rating?: 5 | 4.5; text?: string }): StreamAppend {
  const id = randomUUID();
  return {
    streamId: `review:${id}`,
    streamType: 'review',
    expectedVersion: 0,
    events: [
      {
        type: 'ReviewSubmitted',
        data: {
          review_id: id,
          name: data.name,
          email: null,
          country: data.country ?? 'Kenya',
          rating: data.rating ?? 5,
          text: data.text ?? 'Fine',
          escrow_id: null,
          verified_deal: false,
        },
      },
    ],
  };
}

/** `count` reviews, one event each, appended 500 to an append. */
async function appendReviews(count: number) {
  const store = createEventStore(database.db, projections);
  for (let done = 0; done < count; done += 500) {
    const appends = Array.from({ length: Math.min(500, count - done) }, (_, i) =>
      reviewAppend({ name: `Reviewer ${done + i}` }),
    );
    await store.append(appends, { actor: 'system', request_id: 'export-test' });
  }
}

async function exportedPositions(range: { from?: number; to?: number } = {}) {
  let text = '';
  const summary = await exportEvents(database.db, (chunk) => void (text += chunk), range);
  const [header, ...lines] = text.trimEnd().split('\n');
  return {
    header: JSON.parse(header!) as { from: number; to: number },
    positions: lines.map((line) => (JSON.parse(line) as { position: number }).position),
    summary,
  };
}

const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

beforeAll(async () => {
  database = await openTestDatabase();
  await appendReviews(2_500);
}, 120_000);

afterAll(async () => {
  await database.dispose();
});

// The export reads the next page of 1,000 while the last goes out: every event once, in order, at every page edge.
describe('event export across pages', () => {
  it('exports every event once, in order, past several pages', async () => {
    const { header, positions, summary } = await exportedPositions();
    expect(header).toMatchObject({ from: 1, to: 2_500 });
    expect(positions).toEqual(span(1, 2_500));
    expect(summary).toEqual({ events: 2_500, last: 2_500 });
  });

  it('ends on a range that fills its last page exactly', async () => {
    const { positions, summary } = await exportedPositions({ to: 2_000 });
    expect(positions).toEqual(span(1, 2_000));
    expect(summary).toEqual({ events: 2_000, last: 2_000 });
  });

  it('exports a range across a page edge and nothing outside it', async () => {
    const { header, positions } = await exportedPositions({ from: 990, to: 2_010 });
    expect(header).toMatchObject({ from: 990, to: 2_010 });
    expect(positions).toEqual(span(990, 2_010));
  });

  it('stops when its reader stops, and the store still answers', async () => {
    const chunks = exportChunks(database.db);
    await chunks.next(); // the header
    await chunks.next(); // the first piece of the first page; the second page is being read
    await chunks.return({ events: 0, last: 0 });
    const { positions } = await exportedPositions({ from: 2_499 });
    expect(positions).toEqual([2_499, 2_500]);
  });
});

describe('an export line', () => {
  beforeAll(async () => {
    const awkward = reviewAppend({
      name: 'Zoë "Z" \\ Ünal',
      country: 'Côte d’Ivoire',
      rating: 4.5,
      text: 'Line one\nline two\t"quoted" \\back\\slash 🚲 東京 </script>',
    });
    await createEventStore(database.db, projections).append([awkward], {
      actor: 'system',
      request_id: 'export-test "quoted"',
    });
  });

  it('is the text json_build_object wrote, byte for byte, whatever the event holds', async () => {
    const { rows } = await sql<{ built: string; line: string }>`
      SELECT json_build_object(
        'position', position, 'event_id', event_id, 'stream_id', stream_id, 'stream_type', stream_type,
        'stream_version', stream_version, 'type', type, 'schema_version', schema_version,
        'data', data, 'metadata', metadata,
        'occurred_at', to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'prev_hash', prev_hash, 'hash', hash)::text AS built, ${eventLineSql()} AS line
      FROM events WHERE position IN (1, 2500, 2501) ORDER BY position`.execute(database.db);
    expect(rows).toHaveLength(3);
    for (const { built, line } of rows) expect(line).toBe(built);
    const last = JSON.parse(rows[2]!.line) as { data: { text: string }; metadata: { request_id: string } };
    expect(last.data.text).toBe('Line one\nline two\t"quoted" \\back\\slash 🚲 東京 </script>');
    expect(last.metadata.request_id).toBe('export-test "quoted"');
  });
});
