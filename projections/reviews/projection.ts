import { defineProjection, type Row } from '../projection.ts';
import { idOfStream } from '../stream-ids.ts';

const TABLE = 'reviews';

/** Reviews as moderators and the public see them. The text as first submitted stays in the log. */
export const reviewsProjection = defineProjection({
  name: 'reviews',
  tables: [{ name: TABLE, key: ['id'] }],
  handles: [
    'ReviewSubmitted',
    'ReviewApproved',
    'ReviewEdited',
    'ReviewRejected',
    'ReviewReopened',
    'ReviewDeleted',
  ],
  async apply(store, event) {
    const id = idOfStream(event.stream_id);
    const at = event.occurred_at;
    if (event.type === 'ReviewSubmitted') {
      const d = event.data;
      await store.put(TABLE, {
        id,
        name: d.name,
        email: d.email,
        country: d.country,
        rating: d.rating,
        text: d.text,
        escrow_id: d.escrow_id,
        verified_deal: d.verified_deal,
        status: 'pending',
        published: false,
        edited_by_admin: false,
        admin_edit_note: null,
        rejection_reason: null,
        created_at: at,
        updated_at: at,
      });
      return;
    }
    if (event.type === 'ReviewDeleted') {
      await store.delete(TABLE, [id]);
      return;
    }
    const row = await store.get(TABLE, [id]);
    if (!row) throw new Error(`reviews projection: ${event.type} for unknown review ${id}`);
    let changes: Row = {};
    if (event.type === 'ReviewApproved') changes = { status: 'approved', published: true };
    if (event.type === 'ReviewEdited') {
      changes = {
        status: 'edited_by_admin',
        published: true,
        edited_by_admin: true,
        text: event.data.edited_text,
        admin_edit_note: event.data.admin_note,
      };
    }
    if (event.type === 'ReviewRejected') changes = { status: 'rejected', published: false, rejection_reason: event.data.reason };
    if (event.type === 'ReviewReopened') changes = { status: 'pending', published: false, rejection_reason: null };
    await store.put(TABLE, { ...row, ...changes, updated_at: at });
  },
});
