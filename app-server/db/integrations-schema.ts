import type { ColumnType, Generated } from 'kysely';

type OptionalTime = ColumnType<Date | null, string | null | undefined, string | null>;
type Json<T> = ColumnType<T, string, string>;

/** Webhooks and API tokens (migration 0013): access configuration like sessions, never events, never exported. */
export interface IntegrationsTables {
  webhook_endpoints: {
    id: string;
    /** 'admin': every escrow's events; 'user': the escrows its owner is party to. */
    scope: 'admin' | 'user';
    owner_id: string;
    url: string;
    event_types: Json<string[]>;
    /** The `whsec_` secret, sealed with the server's key. */
    secret_sealed: string;
    created_at: Generated<Date>;
    disabled_at: OptionalTime;
  };
  webhook_deliveries: {
    id: Generated<number>;
    endpoint_id: string;
    /** The `webhook-id` header: the same for every attempt, one per event and endpoint. */
    message_id: string;
    event_type: string;
    event_position: number | null;
    /** The JSON body, fixed when queued, so every attempt sends the same bytes. */
    payload: string;
    created_at: Generated<Date>;
    attempts: Generated<number>;
    next_attempt_at: ColumnType<Date, string | undefined, string>;
    delivered_at: OptionalTime;
    last_status: number | null;
    last_error: string | null;
  };
  webhook_attempts: {
    id: Generated<number>;
    delivery_id: number;
    attempted_at: ColumnType<Date, string, string>;
    status_code: number | null;
    error: string | null;
    duration_ms: number;
  };
  api_tokens: {
    id: string;
    user_id: string;
    name: string;
    token_hash: string;
    scopes: Json<('read' | 'write')[]>;
    created_at: Generated<Date>;
    last_used_at: OptionalTime;
    revoked_at: OptionalTime;
  };
}
