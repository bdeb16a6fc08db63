import { OpenAPIHono, z } from '@hono/zod-openapi';
import { publicReviewsSchema, reviewStatsSchema } from '../../../../contract/reviews.ts';
import { reviewListQuerySchema, reviewSubmissionSchema } from '../../../../contract/review-requests.ts';
import { PublicReviewsCache } from '../../../reviews/public-cache.ts';
import { listPublicReviews, reviewCountries, reviewStats } from '../../../reviews/queries.ts';
import { submitReview } from '../../../reviews/commands.ts';
import { jsonAnswer, jsonBody, jsonText } from '../../bodies.ts';
import { clientAddress } from '../../client-address.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { AppEnv } from '../../env.ts';
import { route } from '../../route.ts';

/** /api/reviews, the public reviews page: list, statistics, countries, and the review form. */
export function reviewRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();
  const cache = new PublicReviewsCache(db);

  app.openapi(
    route(
      'get',
      '/',
      'Published reviews, filtered, sorted and paged',
      { request: { query: reviewListQuerySchema } },
      {
        200: jsonAnswer('A page of reviews', publicReviewsSchema),
      },
    ),
    async (c) => {
      const query = c.req.valid('query');
      return jsonText(c, await cache.answer(`list ${JSON.stringify(query)}`, () => listPublicReviews(db, query)), 200);
    },
  );

  app.openapi(
    route(
      'get',
      '/stats',
      'Average, total and distribution of published reviews',
      {},
      {
        200: jsonAnswer('Statistics', reviewStatsSchema),
      },
    ),
    async (c) => jsonText(c, await cache.answer('stats', async () => JSON.stringify(await reviewStats(db))), 200),
  );

  app.openapi(
    route(
      'get',
      '/countries',
      'Countries with published reviews',
      {},
      { 200: jsonAnswer('Countries', z.array(z.string())) },
    ),
    async (c) =>
      jsonText(c, await cache.answer('countries', async () => JSON.stringify(await reviewCountries(db))), 200),
  );

  app.openapi(
    route(
      'post',
      '/',
      'Submit a review for moderation',
      { request: { body: jsonBody(reviewSubmissionSchema) } },
      {
        201: jsonAnswer('Received', z.object({ detail: z.string(), id: z.string() })),
      },
    ),
    async (c) => {
      const input = c.req.valid('json');
      const id = await submitReview(deps, input, {
        client: clientAddress(c, deps.config.TRUST_PROXY),
        user: c.get('user'),
        meta: { requestId: c.get('requestId') },
      });
      return c.json(
        { detail: 'Thank you! Your review will appear once a moderator has read it, usually within 24-48 hours.', id },
        201,
      );
    },
  );

  return app;
}
