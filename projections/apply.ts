import type { ProjectedEvent, Projection, RowStore } from './projection.ts';

const handlersByType = new WeakMap<readonly Projection[], Map<string, Projection[]>>();

/** The projections of `projections` that handle an event type, in their order (worked out once per list). */
export function handlersOf(projections: readonly Projection[], type: string): readonly Projection[] {
  let byType = handlersByType.get(projections);
  if (!byType) {
    byType = new Map();
    for (const projection of projections)
      for (const handled of projection.handles) byType.set(handled, [...(byType.get(handled) ?? []), projection]);
    handlersByType.set(projections, byType);
  }
  return byType.get(type) ?? [];
}

/** Runs every projection that handles each event, in log order. */
export async function applyEvents(
  store: RowStore,
  projections: readonly Projection[],
  events: readonly ProjectedEvent[],
): Promise<void> {
  for (const event of events) {
    for (const projection of handlersOf(projections, event.type)) await projection.apply(store, event);
  }
}
