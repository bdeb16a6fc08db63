import type { RowStore } from '../projection.ts';
import { defineProjection } from '../projection.ts';
import { idOfStream } from '../stream-ids.ts';

/** Only approved reviews, edited or not, are public and counted. */
const PUBLIC_AFTER = {
  ReviewApproved: true,
  ReviewEdited: true,
  ReviewRejected: false,
  ReviewReopened: false,
  ReviewDeleted: false,
} as const;

async function bump(store: RowStore, table: 'review_stats' | 'review_countries', key: string, by: 1 | -1) {
  const row = await store.get(table, [key]);
  const count = (row?.count ?? 0) + by;
  if (count <= 0) await store.delete(table, [key]);
  else if (table === 'review_stats') await store.put(table, { rating: key, count });
  else await store.put(table, { country: key, count });
}

/**
 * Counts of public reviews by star value and by country, kept up to date event by event, so the statistics card
 * and the country filter never scan the reviews.
 */
export const reviewStatsProjection = defineProjection({
  name: 'review-stats',
  tables: [
    { name: 'review_stats', key: ['rating'] },
    { name: 'review_countries', key: ['country'] },
    { name: 'review_stats_members', key: ['review_id'] },
  ],
  handles: ['ReviewSubmitted', 'ReviewApproved', 'ReviewEdited', 'ReviewRejected', 'ReviewReopened', 'ReviewDeleted'],
  async apply(store, event) {
    const id = idOfStream(event.stream_id);
    if (event.type === 'ReviewSubmitted') {
      await store.put('review_stats_members', {
        review_id: id,
        rating: event.data.rating.toFixed(1),
        country: event.data.country,
        public: false,
      });
      return;
    }
    const member = await store.get('review_stats_members', [id]);
    if (!member) return;
    const nowPublic = PUBLIC_AFTER[event.type as keyof typeof PUBLIC_AFTER];
    if (nowPublic !== member.public) {
      const by = nowPublic ? 1 : -1;
      await bump(store, 'review_stats', member.rating, by);
      await bump(store, 'review_countries', member.country, by);
    }
    if (event.type === 'ReviewDeleted') await store.delete('review_stats_members', [id]);
    else await store.put('review_stats_members', { ...member, public: nowPublic });
  },
});
