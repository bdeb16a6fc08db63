import type { ColumnType, Generated } from 'kysely';
import type { ReadModelTables } from '../../projections/tables.ts';
import type { AccountsTables } from './accounts-schema.ts';
import type { IntegrationsTables } from './integrations-schema.ts';
import type { MessageMailTables } from './messages-schema.ts';

/** Tables of the event store and the application's own bookkeeping (never a read model). */
export interface EventStoreTables {
  streams: { stream_id: string; stream_type: string; version: number };
  events: {
    position: number;
    transaction_id: Generated<string>;
    event_id: string;
    stream_id: string;
    stream_type: string;
    stream_version: number;
    type: string;
    schema_version: number;
    data: ColumnType<unknown, string, string>;
    metadata: ColumnType<unknown, string, string>;
    occurred_at: ColumnType<Date, string, string>;
    prev_hash: string;
    hash: string;
  };
  chain_head: { id: number; position: number; hash: string };
  /** The transparency log's Merkle tree: every complete subtree hash (see migration 0011). */
  tlog_nodes: { level: number; idx: number; hash: Uint8Array };
  tlog_state: { id: number; size: number };
  tlog_checkpoints: {
    size: number;
    root_hash: string;
    signed_at: ColumnType<Date, string, string>;
    note: string;
    vkey: string;
  };
  mail_outbox: {
    id: Generated<number>;
    to_address: string;
    subject: string;
    body: string;
    created_at: Generated<Date>;
    attempts: Generated<number>;
    next_attempt_at: ColumnType<Date, string | undefined, string>;
    sent_at: ColumnType<Date | null, string | null | undefined, string | null>;
    last_error: string | null;
  };
  idempotency_keys: {
    key: string;
    actor: string;
    request_hash: string;
    status: number | null;
    response_body: string | null;
    created_at: Generated<Date>;
    /** Who runs the request now (a random token per claim) and until when; a retry after that takes it over. */
    lease_token: string | null;
    lease_until: ColumnType<Date | null, string | null | undefined, string | null>;
    /** Set in the transaction of the command's events: the command happened, whatever became of its answer. */
    committed_at: ColumnType<Date | null, string | null | undefined, string | null>;
    committed_stream: string | null;
  };
  evidence_files: {
    evidence_id: string;
    escrow_id: string;
    content: Uint8Array;
    sha256: string;
    created_at: Generated<Date>;
  };
  notices: { name: string; raised_at: Generated<Date> };
  /** A payment proof's bytes (hex as the node printed them), named by the SHA-256 its PaymentVerified event records. */
  payment_proofs: {
    proof_sha256: string;
    escrow_id: string;
    tx_hex: string;
    txout_proof: string;
    headers: string;
    created_at: Generated<Date>;
  };
}

export interface Database
  extends EventStoreTables, ReadModelTables, AccountsTables, IntegrationsTables, MessageMailTables {}
