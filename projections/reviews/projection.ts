import { defineProjection, type ProjectedEvent } from '../projection.ts';
import { idOfStream } from '../stream-ids.ts';
import type { RowOf } from '../tables.ts';
import { updateRow } from '../update-row.ts';

const TABLE = 'reviews';
const CAUSE = { projection: 'reviews', noun: 'review' };

/** Changes to the review row for each moderation event. */
function changesFor(event: ProjectedEvent): Partial<RowOf<typeof TABLE>> {
  switch (event.type) {
    case 'ReviewApproved':
      return { status: 'approved', published: true };
    case 'ReviewEdited':
      return {
        status: 'edited_by_admin',
        published: true,
        edited_by_admin: true,
        text: event.data.edited_text,
        admin_edit_note: event.data.admin_note,
      };
    case 'ReviewRejected':
      return { status: 'rejected', published: false, rejection_reason: event.data.reason };
    case 'ReviewReopened':
      return { status: 'pending', published: false, rejection_reason: null };
    default:
      return {};
  }
}

/** Reviews as moderators and the public see them. The text as first submitted stays in the log. */
export const reviewsProjection = defineProjection({
  name: 'reviews',
  tables: [{ name: TABLE, key: ['id'] }],
  handles: ['ReviewSubmitted', 'ReviewApproved', 'ReviewEdited', 'ReviewRejected', 'ReviewReopened', 'ReviewDeleted'],
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
    await updateRow(store, TABLE, [id], () => Object.assign(changesFor(event), { updated_at: at }), event, CAUSE);
  },
});
