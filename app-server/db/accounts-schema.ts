import type { ColumnType, Generated } from 'kysely';

type Time = ColumnType<Date, string, string>;
type OptionalTime = ColumnType<Date | null, string | null | undefined, string | null>;

/** Secrets and security bookkeeping (migration 0003): never events, never exported. */
export interface AccountsTables {
  credentials: { user_id: string; password_hash: string; must_change: Generated<boolean>; updated_at: Time };
  sessions: {
    token_hash: string;
    user_id: string;
    created_at: Time;
    expires_at: Time;
    revoked_at: OptionalTime;
  };
  email_tokens: {
    token_hash: string;
    user_id: string;
    email: string;
    expires_at: Time;
    used_at: OptionalTime;
  };
  totp_secrets: {
    user_id: string;
    secret_encrypted: string;
    enabled: Generated<boolean>;
    last_used_step: number | null;
    created_at: Time;
  };
  recovery_codes: { user_id: string; code_hash: string; used_at: OptionalTime };
  /** One-time first-admin links (migration 0006): the token's SHA-256 only. */
  setup_tokens: { token_hash: string; created_at: Generated<Date> };
  rate_limit_counters: { bucket: string; key: string; window_start: Time; count: number };
  security_log: {
    id: Generated<number>;
    kind: string;
    username: string | null;
    client_address: string | null;
    at: Generated<Date>;
  };
}
