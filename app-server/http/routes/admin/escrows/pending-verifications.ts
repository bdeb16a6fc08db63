import { OpenAPIHono } from '@hono/zod-openapi';
import { pendingVerificationsSchema } from '../../../../../contract/escrows.ts';
import type { AppDeps } from '../../../../app-deps.ts';
import { pendingVerifications } from '../../../../escrows/queries.ts';
import { jsonAnswer } from '../../../bodies.ts';
import type { AppEnv } from '../../../env.ts';
import { adminRoute } from '../../../route.ts';

/** /api/admin/pending-verifications, the payment desk: marked payments awaiting an admin. */
export function pendingVerificationRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    adminRoute(
      'get',
      '/',
      'Marked payments awaiting verification, oldest first, with their evidence',
      {},
      { 200: jsonAnswer('Escrows with the current payment mark and its evidence', pendingVerificationsSchema) },
    ),
    async (c) => c.json(await pendingVerifications(db), 200),
  );

  return app;
}
