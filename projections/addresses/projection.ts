import { defineProjection, type ProjectedEvent } from '../projection.ts';
import { idOfStream } from '../stream-ids.ts';
import type { RowOf } from '../tables.ts';
import { updateRow } from '../update-row.ts';

const TABLE = 'addresses';
const CAUSE = { projection: 'addresses', noun: 'address' };

/** Changes to the address row for each event after the first. */
function changesFor(event: ProjectedEvent): Partial<RowOf<typeof TABLE>> {
  const at = event.occurred_at;
  switch (event.type) {
    case 'AddressChanged':
      return { address_string: event.data.address, updated_at: at };
    case 'AddressAssigned':
      return { status: 'assigned', assigned_to_escrow_id: event.data.escrow_id, updated_at: at };
    case 'AddressFreed':
      return { status: 'available', assigned_to_escrow_id: null, updated_at: at };
    case 'AddressUsed':
      return { status: 'used', assigned_to_escrow_id: event.data.escrow_id, updated_at: at };
    default:
      return {};
  }
}

/** The payment address pool: available, assigned to one escrow, or used (never handed out again). */
export const addressesProjection = defineProjection({
  name: 'addresses',
  tables: [{ name: TABLE, key: ['id'] }],
  handles: ['AddressAdded', 'AddressChanged', 'AddressRemoved', 'AddressAssigned', 'AddressFreed', 'AddressUsed'],
  async apply(store, event) {
    const id = idOfStream(event.stream_id);
    const at = event.occurred_at;
    if (event.type === 'AddressAdded') {
      await store.put(TABLE, {
        id,
        address_string: event.data.address,
        network: event.data.network,
        status: 'available',
        assigned_to_escrow_id: null,
        created_at: at,
        updated_at: at,
      });
      return;
    }
    if (event.type === 'AddressRemoved') {
      await store.delete(TABLE, [id]);
      return;
    }
    await updateRow(store, TABLE, [id], () => changesFor(event), event, CAUSE);
  },
});
