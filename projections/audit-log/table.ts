import type { ColumnType } from 'kysely';

export interface AuditLogTables {
  audit_log: {
    /** The event's position in the log. */
    id: number;
    action_type: string;
    timestamp: ColumnType<Date, string, string>;
    object_type: string;
    object_id: string;
    /** A user id or 'system'. */
    actor: string;
    actor_user_id: string | null;
    summary: string;
  };
}
