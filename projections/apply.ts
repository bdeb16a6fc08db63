import type { StoredEvent } from '../domain/stored-event.ts';
import type { Projection, RowStore } from './projection.ts';

/** Runs every projection that handles each event, in log order. */
export async function applyEvents(
  store: RowStore,
  projections: readonly Projection[],
  events: readonly StoredEvent[],
): Promise<void> {
  for (const event of events) {
    for (const projection of projections) {
      if (projection.handles.includes(event.type)) await projection.apply(store, event);
    }
  }
}
