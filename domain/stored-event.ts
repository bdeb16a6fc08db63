import type { DomainEvent } from './events.ts';

/** Who acted and why, stored with every event. Never a secret. */
export interface EventMetadata {
  /** A user id, 'system' for jobs and the CLI, or 'anonymous' for a public form. */
  actor: string;
  request_id: string;
  /** Version of the rules (state machine) that accepted the event, where one applies. */
  machine_version?: number;
}

/** An event as read back from the log: its place in the chain and its envelope. */
export type StoredEvent<E extends DomainEvent = DomainEvent> = E & {
  position: number;
  event_id: string;
  stream_id: string;
  stream_type: string;
  stream_version: number;
  schema_version: number;
  metadata: EventMetadata;
  /** ISO-8601 UTC with milliseconds. */
  occurred_at: string;
  prev_hash: string;
  hash: string;
};
