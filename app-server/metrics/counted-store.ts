import { DomainError } from '../../domain/shared/errors.ts';
import type { EventStore } from '../event-store/event-store.ts';
import type { Metrics } from './metrics.ts';

/** The event store, counting its appends by outcome and the events they wrote. */
export function countedStore(store: EventStore, metrics: Metrics): EventStore {
  return {
    ...store,
    async append(appends, metadata, options) {
      try {
        const stored = await store.append(appends, metadata, options);
        if (stored.length) {
          metrics.appends.inc({ outcome: 'committed' });
          metrics.appendedEvents.inc(stored.length);
        }
        return stored;
      } catch (error) {
        const conflict = error instanceof DomainError && error.code === 'conflict';
        metrics.appends.inc({ outcome: conflict ? 'conflict' : 'failed' });
        throw error;
      }
    },
  };
}
