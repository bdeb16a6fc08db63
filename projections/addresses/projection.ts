import { defineProjection } from '../projection.ts';
import { idOfStream } from '../stream-ids.ts';

const TABLE = 'addresses';

/** The payment address pool: available, assigned to one escrow, or used (never handed out again). */
export const addressesProjection = defineProjection({
  name: 'addresses',
  tables: [{ name: TABLE, key: ['id'] }],
  handles: [
    'AddressAdded',
    'AddressChanged',
    'AddressRemoved',
    'AddressAssigned',
    'AddressFreed',
    'AddressUsed',
  ],
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
    const row = await store.get(TABLE, [id]);
    if (!row) throw new Error(`addresses projection: ${event.type} for unknown address ${id}`);
    switch (event.type) {
      case 'AddressChanged':
        await store.put(TABLE, { ...row, address_string: event.data.address, updated_at: at });
        return;
      case 'AddressAssigned':
        await store.put(TABLE, {
          ...row,
          status: 'assigned',
          assigned_to_escrow_id: event.data.escrow_id,
          updated_at: at,
        });
        return;
      case 'AddressFreed':
        await store.put(TABLE, { ...row, status: 'available', assigned_to_escrow_id: null, updated_at: at });
        return;
      case 'AddressUsed':
        await store.put(TABLE, {
          ...row,
          status: 'used',
          assigned_to_escrow_id: event.data.escrow_id,
          updated_at: at,
        });
        return;
    }
  },
});
