import { describe, expect, it } from 'vitest';
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

const approved: ReviewEvent = { type: 'ReviewApproved', data: {} };
const edited: ReviewEvent = { type: 'ReviewEdited', data: { edited_text: 'Fine', admin_note: '' } };

describe('review moderation, each refusal in words', () => {
  it('takes text of exactly 1000 characters, and names the limit past it', () => {
    const events = review([])
      .when(submit('y'.repeat(1000)))
      .events();
    expect(events).toHaveLength(1);
    expect((events[0]!.data as { text: string }).text).toHaveLength(1000);
    review([])
      .when(submit('y'.repeat(1001)))
      .thenRefused('invalid_input', 'text must be at most 1000 characters');
  });

  it('needs a name and a country, trimmed', () => {
    review([])
      .when({ ...submit('Good'), name: '  ' })
      .thenRefused('invalid_input', 'name is required');
    review([])
      .when({ ...submit('Good'), country: '' })
      .thenRefused('invalid_input', 'country is required');
    review([])
      .when({ ...submit('Good'), name: ' Bo ', country: ' FR ', email: 'bo@example.com', rating: 3 })
      .then([
        {
          type: 'ReviewSubmitted',
          data: { ...submitted.data, name: 'Bo', country: 'FR', email: 'bo@example.com', rating: 3, text: 'Good' },
        },
      ]);
  });

  it('refuses a second submission of the same review', () => {
    review([submitted]).when(submit('Again')).thenRefused('transition_not_allowed', 'This review already exists');
    review([submitted, { type: 'ReviewDeleted', data: {} }])
      .when(submit('Again'))
      .thenRefused('transition_not_allowed', 'This review already exists');
  });

  it('knows no review before it is submitted', () => {
    review([]).when({ type: 'approve' }).thenRefused('not_found', 'Review not found');
    review([]).when({ type: 'delete' }).thenRefused('not_found', 'Review not found');
    review([submitted, { type: 'ReviewDeleted', data: {} }])
      .when({ type: 'delete' })
      .thenRefused('not_found', 'Review not found');
  });

  it('says what a review is when it cannot be approved, rejected, edited or reopened', () => {
    review([submitted, approved])
      .when({ type: 'approve' })
      .thenRefused('transition_not_allowed', 'Cannot approve a review that is approved');
    review([submitted, edited])
      .when({ type: 'approve' })
      .thenRefused('transition_not_allowed', 'Cannot approve a review that is edited_by_admin');
    review([submitted, rejected])
      .when({ type: 'edit', edited_text: 'x', admin_note: '' })
      .thenRefused('transition_not_allowed', 'Cannot edit a review that is rejected');
    review([submitted, approved])
      .when({ type: 'reject', reason: 'late' })
      .thenRefused('transition_not_allowed', 'Cannot reject a review that is approved');
    review([submitted])
      .when({ type: 'reopen' })
      .thenRefused('transition_not_allowed', 'Cannot reopen a review that is pending');
  });

  it('lets an admin edit an approved review again, within the same limits', () => {
    review([submitted, approved])
      .when({ type: 'edit', edited_text: ' Better ', admin_note: 'spelling' })
      .then([{ type: 'ReviewEdited', data: { edited_text: 'Better', admin_note: 'spelling' } }]);
    review([submitted, edited])
      .when({ type: 'edit', edited_text: ' ', admin_note: '' })
      .thenRefused('invalid_input', 'text is required');
  });

  it('follows each event to its status', () => {
    const status = (events: ReviewEvent[]) =>
      events.reduce(reviewAggregate.evolve, reviewAggregate.initial()) as { status: string };
    expect(status([])).toEqual({ status: 'none' });
    expect(status([submitted])).toEqual({ status: 'pending' });
    expect(status([submitted, approved])).toEqual({ status: 'approved' });
    expect(status([submitted, edited])).toEqual({ status: 'edited_by_admin' });
    expect(status([submitted, rejected])).toEqual({ status: 'rejected' });
    expect(status([submitted, rejected, { type: 'ReviewReopened', data: {} }])).toEqual({ status: 'pending' });
    expect(status([submitted, { type: 'ReviewDeleted', data: {} }])).toEqual({ status: 'deleted' });
  });

  it('names an unknown command', () => {
    expect(() =>
      reviewAggregate.decide(
        { type: 'archive' } as never,
        { status: 'pending' },
        {
          now: '2026-01-01T00:00:00.000Z',
          newId: () => ID,
          actor: ID,
        },
      ),
    ).toThrow('Unknown review command archive');
  });
});
