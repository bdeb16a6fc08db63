import { OpenAPIHono, z } from '@hono/zod-openapi';
import { adminReviewsSchema } from '../../../../contract/reviews.ts';
import {
  editReviewSchema,
  rejectReviewSchema,
  reviewIdParam as idParam,
} from '../../../../contract/admin-review-requests.ts';
import { moderateReview } from '../../../reviews/commands.ts';
import { listModeratedReviews } from '../../../reviews/queries.ts';
import { formBody, jsonAnswer, jsonText } from '../../bodies.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { AppEnv } from '../../env.ts';
import { adminRoute } from '../../route.ts';
import { notAPower } from '../../middleware/admin-step-up.ts';
import { commandMeta } from '../../command-meta.ts';

type Moderation = Parameters<typeof moderateReview>[2];

const message = jsonAnswer('Done', z.object({ detail: z.string() }));
const list = jsonAnswer('Reviews', adminReviewsSchema);
/** Every moderation action: an admin write that is no power. */
const MODERATION = notAPower('review moderation: moves no money, grants no power');

/** /api/admin/reviews: moderation of reviews. Every action is an event on the review's stream, checked by its decider. */
export function adminReviewRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();
  const act = async (c: Parameters<typeof commandMeta>[0], id: string, command: Moderation) =>
    moderateReview(deps, id, command, commandMeta(c));

  app.openapi(
    adminRoute('get', '/pending', 'Reviews awaiting moderation, oldest first', {}, { 200: list }),
    async (c) => {
      return jsonText(c, await listModeratedReviews(db, 'pending'), 200);
    },
  );

  app.openapi(adminRoute('get', '/', 'Every review, newest first', {}, { 200: list }), async (c) => {
    return jsonText(c, await listModeratedReviews(db, 'all'), 200);
  });

  app.openapi(
    adminRoute(
      'post',
      '/{id}/approve',
      'Publish a pending review',
      { request: { params: idParam } },
      { 200: message },
      MODERATION,
    ),
    async (c) => {
      await act(c, c.req.valid('param').id, { type: 'approve' });
      return c.json({ detail: 'Review approved' }, 200);
    },
  );

  app.openapi(
    adminRoute(
      'post',
      '/{id}/reject',
      'Reject a pending review with a reason',
      { request: { params: idParam, body: formBody(rejectReviewSchema) } },
      { 200: message },
      MODERATION,
    ),
    async (c) => {
      const { reason } = c.req.valid('form');
      await act(c, c.req.valid('param').id, { type: 'reject', reason });
      return c.json({ detail: 'Review rejected' }, 200);
    },
  );

  app.openapi(
    adminRoute(
      'post',
      '/{id}/edit',
      'Replace the text (kept in the log) and publish',
      { request: { params: idParam, body: formBody(editReviewSchema) } },
      { 200: message },
      MODERATION,
    ),
    async (c) => {
      const { edited_text, admin_note } = c.req.valid('form');
      await act(c, c.req.valid('param').id, { type: 'edit', edited_text, admin_note });
      return c.json({ detail: 'Review edited and approved' }, 200);
    },
  );

  app.openapi(
    adminRoute(
      'post',
      '/{id}/reopen',
      'Put a rejected review back into moderation',
      { request: { params: idParam } },
      { 200: message },
      MODERATION,
    ),
    async (c) => {
      await act(c, c.req.valid('param').id, { type: 'reopen' });
      return c.json({ detail: 'Review reopened' }, 200);
    },
  );

  app.openapi(
    adminRoute(
      'delete',
      '/{id}',
      'Delete a review permanently (its history stays in the log)',
      { request: { params: idParam } },
      { 200: message },
      MODERATION,
    ),
    async (c) => {
      await act(c, c.req.valid('param').id, { type: 'delete' });
      return c.json({ detail: 'Review deleted' }, 200);
    },
  );

  return app;
}
