import { defineProjection } from '../projection.ts';
import { idOfStream } from '../stream-ids.ts';
import { updateRow } from '../update-row.ts';

const CAUSE = { projection: 'verifications', noun: 'payment mark' };

/** Payment marks awaiting an admin, with their evidence, and the history of decided ones. */
export const verificationsProjection = defineProjection({
  name: 'verifications',
  tables: [
    { name: 'payment_marks', key: ['escrow_id', 'mark_position'] },
    { name: 'payment_mark_current', key: ['escrow_id'] },
    { name: 'payment_evidence', key: ['evidence_id'] },
  ],
  handles: ['PaymentMarked', 'PaymentRejected', 'PaymentVerified'],
  async apply(store, event) {
    const escrowId = idOfStream(event.stream_id);
    if (event.type === 'PaymentMarked') {
      await store.put('payment_marks', {
        escrow_id: escrowId,
        mark_position: event.position,
        notes: event.data.notes,
        marked_by: event.metadata.actor,
        marked_at: event.occurred_at,
        status: 'pending',
        decided_by: null,
        decided_at: null,
        decision_notes: null,
      });
      await store.put('payment_mark_current', { escrow_id: escrowId, mark_position: event.position });
      for (const file of event.data.evidence) {
        await store.put('payment_evidence', { ...file, escrow_id: escrowId, mark_position: event.position });
      }
      return;
    }
    if (event.type !== 'PaymentRejected' && event.type !== 'PaymentVerified') return;
    const current = await store.get('payment_mark_current', [escrowId]);
    if (!current) throw new Error(`verifications projection: ${event.type} without a mark on ${escrowId}`);
    await updateRow(
      store,
      'payment_marks',
      [escrowId, current.mark_position],
      () => ({
        status: event.type === 'PaymentVerified' ? 'verified' : 'rejected',
        decided_by: event.metadata.actor,
        decided_at: event.occurred_at,
        decision_notes: event.data.notes,
      }),
      event,
      CAUSE,
    );
    await store.delete('payment_mark_current', [escrowId]);
  },
});
