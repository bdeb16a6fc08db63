import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../domain/events.ts';
import { reviewsProjection } from '../reviews/projection.ts';
import { project } from '../test-events.ts';
import { reviewStatsProjection } from './projection.ts';

const submitted = (rating: 5 | 4.5 | 4 | 3.5 | 3, country: string): DomainEvent => ({
  type: 'ReviewSubmitted',
  data: {
    review_id: '00000000-0000-4000-8000-00000000000a',
    name: 'Ann',
    email: null,
    country,
    rating,
    text: 'Good',
    escrow_id: null,
    verified_deal: false,
  },
});

const stats = async (events: DomainEvent[]) => {
  const result = await project(
    [reviewsProjection, reviewStatsProjection],
    'review:00000000-0000-4000-8000-00000000000a',
    events,
  );
  return {
    ratings: result.rows('review_stats'),
    countries: result.rows('review_countries'),
    reviews: result.rows('reviews'),
  };
};

describe('review statistics', () => {
  it('counts nothing while a review is pending', async () => {
    const { ratings, countries } = await stats([submitted(4.5, 'DE')]);
    expect(ratings).toEqual([]);
    expect(countries).toEqual([]);
  });

  it('counts a review once approved, and again only once when it is also edited', async () => {
    const { ratings, countries } = await stats([
      submitted(4.5, 'DE'),
      { type: 'ReviewApproved', data: {} },
      { type: 'ReviewEdited', data: { edited_text: 'Good, fast', admin_note: 'typo' } },
    ]);
    expect(ratings).toEqual([{ rating: '4.5', count: 1 }]);
    expect(countries).toEqual([{ country: 'DE', count: 1 }]);
  });

  it('uncounts a review that is deleted after approval', async () => {
    const { ratings, countries, reviews } = await stats([
      submitted(3, 'FR'),
      { type: 'ReviewApproved', data: {} },
      { type: 'ReviewDeleted', data: {} },
    ]);
    expect(ratings).toEqual([]);
    expect(countries).toEqual([]);
    expect(reviews).toEqual([]);
  });

  it('never counts a rejected review, and counts it after it is reopened and approved', async () => {
    const rejected = await stats([submitted(5, 'US'), { type: 'ReviewRejected', data: { reason: 'Spam' } }]);
    expect(rejected.ratings).toEqual([]);
    expect(rejected.reviews[0]).toMatchObject({ status: 'rejected', rejection_reason: 'Spam' });
    const approved = await stats([
      submitted(5, 'US'),
      { type: 'ReviewRejected', data: { reason: 'Spam' } },
      { type: 'ReviewReopened', data: {} },
      { type: 'ReviewApproved', data: {} },
    ]);
    expect(approved.ratings).toEqual([{ rating: '5.0', count: 1 }]);
  });
});
