import type { DomainEvent } from '../domain/events.ts';
import { streamTypeOf } from '../domain/events.ts';
import type { StoredEvent } from '../domain/stored-event.ts';
import { applyEvents } from './apply.ts';
import { MemoryRowStore } from './memory-row-store.ts';
import type { Projection } from './projection.ts';

/** Wraps domain events as stored events on one stream, a minute apart, and runs them through projections. */
export async function project(
  projections: readonly Projection[],
  streamId: string,
  events: DomainEvent[],
  actor = 'system',
) {
  const store = new MemoryRowStore(projections.flatMap((p) => p.tables));
  const stored = events.map(
    (event, i) =>
      ({
        ...event,
        position: i + 1,
        event_id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
        stream_id: streamId,
        stream_type: streamTypeOf(event.type),
        stream_version: i + 1,
        schema_version: 1,
        metadata: { actor, request_id: 'test' },
        occurred_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
        prev_hash: '',
        hash: '',
      }) as StoredEvent,
  );
  await applyEvents(store, projections, stored);
  return { rows: (table: string) => [...(store.tables.get(table)?.values() ?? [])], stored };
}
