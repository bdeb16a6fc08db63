import { invalidInput, notFound, transitionNotAllowed } from '../shared/errors.ts';
import type { ReviewEvent, ReviewRating } from './events.ts';

export type ReviewStatus = 'none' | 'pending' | 'approved' | 'edited_by_admin' | 'rejected' | 'deleted';
export interface ReviewState {
  status: ReviewStatus;
}

export const initialReviewState = (): ReviewState => ({ status: 'none' });

export function evolveReview(_state: ReviewState, event: ReviewEvent): ReviewState {
  const next: Record<ReviewEvent['type'], ReviewStatus> = {
    ReviewSubmitted: 'pending',
    ReviewApproved: 'approved',
    ReviewEdited: 'edited_by_admin',
    ReviewRejected: 'rejected',
    ReviewReopened: 'pending',
    ReviewDeleted: 'deleted',
  };
  return { status: next[event.type] };
}

export type ReviewCommand =
  | {
      type: 'submit';
      review_id: string;
      name: string;
      email: string | null;
      country: string;
      rating: ReviewRating;
      text: string;
      escrow_id: string | null;
      verified_deal: boolean;
    }
  | { type: 'approve' }
  | { type: 'edit'; edited_text: string; admin_note: string }
  | { type: 'reject'; reason: string }
  | { type: 'reopen' }
  | { type: 'delete' };

export const REVIEW_TEXT_MAX = 1000;

function required(value: string, message: string): string {
  const text = value.trim();
  if (!text) throw invalidInput(message);
  return text;
}

function reviewText(value: string): string {
  const text = required(value, 'text is required');
  if (text.length > REVIEW_TEXT_MAX) throw invalidInput(`text must be at most ${REVIEW_TEXT_MAX} characters`);
  return text;
}

const refuse = (state: ReviewState, doing: string) =>
  transitionNotAllowed(`Cannot ${doing} a review that is ${state.status}`);

/** Moderation rules: pending → approved / edited / rejected; a rejected review needs reopening before approval. */
export function decideReview(command: ReviewCommand, state: ReviewState): ReviewEvent[] {
  if (command.type === 'submit') {
    if (state.status !== 'none') throw transitionNotAllowed('This review already exists');
    return [
      {
        type: 'ReviewSubmitted',
        data: {
          review_id: command.review_id,
          name: required(command.name, 'name is required'),
          email: command.email,
          country: required(command.country, 'country is required'),
          rating: command.rating,
          text: reviewText(command.text),
          escrow_id: command.escrow_id,
          verified_deal: command.verified_deal,
        },
      },
    ];
  }
  if (state.status === 'none' || state.status === 'deleted') throw notFound('Review not found');
  switch (command.type) {
    case 'approve':
      if (state.status !== 'pending') throw refuse(state, 'approve');
      return [{ type: 'ReviewApproved', data: {} }];
    case 'edit':
      if (state.status === 'rejected') throw refuse(state, 'edit');
      return [
        {
          type: 'ReviewEdited',
          data: { edited_text: reviewText(command.edited_text), admin_note: command.admin_note.trim() },
        },
      ];
    case 'reject':
      if (state.status !== 'pending') throw refuse(state, 'reject');
      return [
        {
          type: 'ReviewRejected',
          data: { reason: required(command.reason, 'Please provide a rejection reason') },
        },
      ];
    case 'reopen':
      if (state.status !== 'rejected') throw refuse(state, 'reopen');
      return [{ type: 'ReviewReopened', data: {} }];
    case 'delete':
      return [{ type: 'ReviewDeleted', data: {} }];
    default: {
      const unknown: never = command;
      throw new Error(`Unknown review command ${(unknown as { type: string }).type}`);
    }
  }
}
