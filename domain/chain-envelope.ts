import { configure } from 'safe-stable-stringify';
import type { StoredEvent } from './stored-event.ts';

/**
 * What each event's chain hash covers, in its canonical form: pure and browser-safe (the web app checks a deal's
 * proof bundle with it). The hash itself is in chain.ts (node:crypto, fast) and transparency/event-hash.ts (portable).
 */

/** The hash before the first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** Exactly the fields replay and audit depend on; each event's hash covers them and the hash before it. */
export interface ChainEnvelope {
  position: number;
  event_id: string;
  stream_id: string;
  stream_type: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: unknown;
  /** ISO-8601 in UTC with milliseconds, as `Date.prototype.toISOString` writes it. */
  occurred_at: string;
}

/**
 * Keys sorted by UTF-16 code units at every depth, values as JSON.stringify writes them: for every value an event
 * can hold this is RFC 8785's form (a property test holds it to the `canonicalize` reference implementation), at
 * half its cost. Strict: NaN, Infinity, functions and the like throw instead of being written as null. Lone
 * surrogates have no RFC 8785 form; input validation refuses them (422), so none reach an event.
 */
const stableStringify = configure({ deterministic: true, strict: true, circularValue: TypeError });

/** RFC 8785 canonical JSON: the database may reorder jsonb keys; this form never changes. */
export function canonicalJson(value: unknown): string {
  const text = stableStringify(value);
  if (text === undefined) throw new TypeError('Value has no JSON form');
  return text;
}

/** The fields of a stored event that its hash covers. */
export function envelopeOf(event: StoredEvent): ChainEnvelope {
  return {
    position: event.position,
    event_id: event.event_id,
    stream_id: event.stream_id,
    stream_type: event.stream_type,
    stream_version: event.stream_version,
    type: event.type,
    schema_version: event.schema_version,
    data: event.data,
    metadata: event.metadata,
    occurred_at: event.occurred_at,
  };
}

const isText = (value: unknown) => typeof value === 'string';
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);

/**
 * canonicalJson of an envelope, its ten keys written in their sorted order by hand: strings and numbers as
 * JSON.stringify writes them (RFC 8785's form for both), data and metadata through canonicalJson. A quarter of the
 * cost of sorting the envelope's keys on every event, which verify-export does a million times; an envelope with a
 * field of another type (a tampered export) takes the general path.
 */
export function canonicalEnvelope(e: ChainEnvelope): string {
  const plain =
    isNumber(e.position) &&
    isText(e.event_id) &&
    isText(e.stream_id) &&
    isText(e.stream_type) &&
    isNumber(e.stream_version) &&
    isText(e.type) &&
    isNumber(e.schema_version) &&
    isText(e.occurred_at) &&
    e.data !== undefined &&
    e.metadata !== undefined;
  if (!plain) return canonicalJson(e);
  const text = JSON.stringify;
  return (
    `{"data":${canonicalJson(e.data)},"event_id":${text(e.event_id)},"metadata":${canonicalJson(e.metadata)},"occurred_at":${text(e.occurred_at)},` +
    `"position":${text(e.position)},"schema_version":${text(e.schema_version)},"stream_id":${text(e.stream_id)},"stream_type":${text(e.stream_type)},` +
    `"stream_version":${text(e.stream_version)},"type":${text(e.type)}}`
  );
}
