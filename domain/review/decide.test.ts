import { describe, it } from 'vitest';
import { reviewAggregate } from '../aggregates.ts';
import { given } from '../testing/given.ts';
import type { ReviewEvent } from './events.ts';

const ID = '44444444-4444-4444-8444-444444444444';
const submitted: ReviewEvent = {
  type: 'ReviewSubmitted',
  data: {
    review_id: ID,
    name: 'Ann',
    email: null,
    country: 'DE',
    rating: 4.5,
    text: 'Smooth',
    escrow_id: null,
    verified_deal: false,
  },
};
const rejected: ReviewEvent = { type: 'ReviewRejected', data: { reason: 'Spam' } };
const review = (past: ReviewEvent[]) => given(reviewAggregate, past);
const submit = (text: string) => ({
  type: 'submit' as const,
  review_id: ID,
  name: 'Ann',
  email: null,
  country: 'DE',
  rating: 4.5 as const,
  text,
  escrow_id: null,
  verified_deal: false,
});

describe('review moderation', () => {
  it('submits with trimmed text of at most 1000 characters', () => {
    review([]).when(submit(' Smooth ')).then([submitted]);
    review([])
      .when(submit('x'.repeat(1001)))
      .thenRefused('invalid_input', 'at most 1000');
    review([]).when(submit('   ')).thenRefused('invalid_input', 'text is required');
  });

  it('approves, edits or rejects a pending review', () => {
    review([submitted])
      .when({ type: 'approve' })
      .then([{ type: 'ReviewApproved', data: {} }]);
    review([submitted])
      .when({ type: 'edit', edited_text: 'Smooth deal', admin_note: ' typo ' })
      .then([{ type: 'ReviewEdited', data: { edited_text: 'Smooth deal', admin_note: 'typo' } }]);
    review([submitted]).when({ type: 'reject', reason: 'Spam' }).then([rejected]);
  });

  it('needs a rejection reason', () => {
    review([submitted])
      .when({ type: 'reject', reason: ' ' })
      .thenRefused('invalid_input', 'Please provide a rejection reason');
  });

  it('approves a rejected review only after it is reopened', () => {
    review([submitted, rejected]).when({ type: 'approve' }).thenRefused('transition_not_allowed', 'rejected');
    review([submitted, rejected])
      .when({ type: 'reopen' })
      .then([{ type: 'ReviewReopened', data: {} }]);
    review([submitted, rejected, { type: 'ReviewReopened', data: {} }])
      .when({ type: 'approve' })
      .then([{ type: 'ReviewApproved', data: {} }]);
  });

  it('takes nothing once deleted', () => {
    const deleted: ReviewEvent = { type: 'ReviewDeleted', data: {} };
    review([submitted]).when({ type: 'delete' }).then([deleted]);
    review([submitted, deleted]).when({ type: 'approve' }).thenRefused('not_found');
  });
});
