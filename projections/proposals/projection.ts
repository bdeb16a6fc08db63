import { defineProjection } from '../projection.ts';
import { idOfStream } from '../stream-ids.ts';
import { updateRow } from '../update-row.ts';

const TABLE = 'escrow_proposals';
const CAUSE = { projection: 'proposals', noun: 'proposal' };

/** Every settlement proposal of every escrow, with where it stands: open until accepted, declined or withdrawn. */
export const proposalsProjection = defineProjection({
  name: 'proposals',
  tables: [{ name: TABLE, key: ['id'] }],
  handles: ['ProposalMade', 'ProposalAccepted', 'ProposalDeclined', 'ProposalWithdrawn'],
  async apply(store, event) {
    if (event.type === 'ProposalMade') {
      const d = event.data;
      await store.put(TABLE, {
        id: d.proposal_id,
        escrow_id: idOfStream(event.stream_id),
        position: event.position,
        kind: d.kind,
        status: 'open',
        proposed_by: d.side,
        seller_percent: d.seller_percent,
        days: d.days,
        note: d.note,
        seller_sats: d.seller_sats,
        buyer_sats: d.buyer_sats,
        decline_reason: null,
        answered_at: null,
        created_at: event.occurred_at,
      });
      return;
    }
    if (event.type !== 'ProposalAccepted' && event.type !== 'ProposalDeclined' && event.type !== 'ProposalWithdrawn')
      return;
    const status = (
      { ProposalAccepted: 'accepted', ProposalDeclined: 'declined', ProposalWithdrawn: 'withdrawn' } as const
    )[event.type];
    const reason = event.type === 'ProposalDeclined' ? event.data.reason : null;
    await updateRow(
      store,
      TABLE,
      [event.data.proposal_id],
      () => ({ status, decline_reason: reason, answered_at: event.occurred_at }),
      event,
      CAUSE,
    );
  },
});
