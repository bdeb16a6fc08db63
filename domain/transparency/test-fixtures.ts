import type { ChainEnvelope } from '../chain-envelope.ts';

/** The envelope of the `position`th event of one escrow's stream, with `data` and `metadata`. */
export const envelopeAt = (position: number, data: unknown, metadata: unknown): ChainEnvelope => ({
  position,
  event_id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
  stream_id: 'escrow:00000000-0000-4000-8000-000000000001',
  stream_type: 'escrow',
  stream_version: position,
  type: 'EscrowCreated',
  schema_version: 1,
  data,
  metadata,
  occurred_at: '2026-01-01T00:00:00.000Z',
});
