import { defineProjection } from '../projection.ts';
import { idOfStream } from '../stream-ids.ts';
import { updateRow } from '../update-row.ts';

const TABLE = 'disputes';
const CAUSE = { projection: 'disputes', noun: 'dispute' };

/** Every dispute an escrow has had, open or resolved, with its outcome. */
export const disputesProjection = defineProjection({
  name: 'disputes',
  tables: [{ name: TABLE, key: ['id'] }],
  handles: ['DisputeOpened', 'DisputeResolved'],
  async apply(store, event) {
    if (event.type === 'DisputeOpened') {
      await store.put(TABLE, {
        id: event.data.dispute_id,
        escrow_id: idOfStream(event.stream_id),
        reason: event.data.reason,
        opened_by_side: event.data.opened_by_side,
        opened_by: event.metadata.actor,
        opened_at: event.occurred_at,
        status: 'open',
        outcome: null,
        resolution: null,
        seller_percent: null,
        resolved_by: null,
        resolved_at: null,
      });
    } else if (event.type === 'DisputeResolved') {
      const { dispute_id, outcome, resolution, seller_percent } = event.data;
      // A settlement both parties agreed to is executed with no dispute to close.
      if (dispute_id === null) return;
      await updateRow(
        store,
        TABLE,
        [dispute_id],
        () => ({
          status: 'resolved',
          outcome,
          resolution,
          seller_percent,
          resolved_by: event.metadata.actor,
          resolved_at: event.occurred_at,
        }),
        event,
        CAUSE,
      );
    }
  },
});
