import { eventTypes } from '../../domain/events.ts';
import { SYSTEM_ACTOR } from '../../domain/shared/context.ts';
import { defineProjection } from '../projection.ts';
import { idOfStream } from '../stream-ids.ts';
import { summarise } from './summary.ts';

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
      actor_user_id: actor === SYSTEM_ACTOR ? null : actor,
      summary: summarise(event, objectId),
    });
  },
});
