export interface ReviewStatsTables {
  /** Public reviews per star value: '5.0', '4.5', '4.0', '3.5', '3.0'. */
  review_stats: { rating: string; count: number };
  /** Countries with at least one public review. */
  review_countries: { country: string; count: number };
  /** What the statistics know of each review, so approvals need no other read model. */
  review_stats_members: { review_id: string; rating: string; country: string; public: boolean };
}
