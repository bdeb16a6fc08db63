/** The audit log's filters: `action_type` takes the type of any event of the catalogue. */
export { eventTypes as auditActionTypes } from '../domain/events.ts';
