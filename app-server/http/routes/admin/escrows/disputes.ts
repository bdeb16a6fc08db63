import { OpenAPIHono } from '@hono/zod-openapi';
import { adminDisputesSchema, escrowSchema } from '../../../../../contract/escrows.ts';
import { disputeIdParam, resolutionOf, resolveDisputeSchema } from '../../../../../contract/admin-escrow-requests.ts';
import type { AppDeps } from '../../../../app-deps.ts';
import { resolveDispute } from '../../../../escrows/commands.ts';
import { disputesForAdmin } from '../../../../escrows/queries.ts';
import { formBody, jsonAnswer, jsonText } from '../../../bodies.ts';
import type { AppEnv } from '../../../env.ts';
import { adminRoute } from '../../../route.ts';
import { ADMIN_POWER } from '../../../middleware/admin-step-up.ts';
import { escrowActing } from '../../escrows/acting.ts';

/** /api/admin/disputes: the disputes, open first, and their resolution, which may move the money. */
export function adminDisputeRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();
  const { answerAfter, meta } = escrowActing(deps);

  app.openapi(
    adminRoute(
      'post',
      '/{id}/resolve',
      'Resolve an open dispute, optionally moving the money',
      { request: { params: disputeIdParam, body: formBody(resolveDisputeSchema) } },
      { 200: jsonAnswer('The escrow after the action', escrowSchema) },
      ADMIN_POWER,
    ),
    async (c) => {
      const after = await resolveDispute(deps, c.req.valid('param').id, resolutionOf(c.req.valid('form')), meta(c));
      // An admin route: the admin's side on every escrow.
      return jsonText(c, answerAfter(after, 'admin'), 200);
    },
  );
  app.openapi(
    adminRoute(
      'get',
      '/',
      'Disputes, open first, newest first',
      {},
      { 200: jsonAnswer('Disputes', adminDisputesSchema) },
    ),
    async (c) => {
      return c.json(await disputesForAdmin(db), 200);
    },
  );

  return app;
}
