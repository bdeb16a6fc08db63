import { eventTypes } from '../../domain/events.ts';
import { defineProjection } from '../projection.ts';
import { idOfStream } from '../stream-ids.ts';
import { summarise } from './summary.ts';

/** Actors are user ids, 'system' (jobs, CLI) or 'anonymous' (a public review form). */
const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One line per event, whoever and whatever it was: the audit log is the whole log, made readable. */
export const auditLogProjection = defineProjection({
  name: 'audit-log',
  tables: [{ name: 'audit_log', key: ['id'], appendOnly: true }],
  handles: eventTypes,
  async apply(store, event) {
    const objectId = idOfStream(event.stream_id);
    const actor = event.metadata.actor;
    await store.put('audit_log', {
      id: event.position,
      action_type: event.type,
      timestamp: event.occurred_at,
      object_type: event.stream_type,
      object_id: objectId,
      actor,
      actor_user_id: USER_ID.test(actor) ? actor : null,
      summary: summarise(event, objectId),
    });
  },
});
