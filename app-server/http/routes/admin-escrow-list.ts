import { OpenAPIHono, z } from '@hono/zod-openapi';
import { adminEscrowPageSchema } from '../../../contract/escrows.ts';
import { ESCROW_STATUSES, listEscrowsForAdmin } from '../../escrows/admin-list.ts';
import { jsonAnswer, jsonText } from '../bodies.ts';
import type { AppDeps } from '../../app-deps.ts';
import type { AppEnv } from '../env.ts';
import { adminRoute } from '../route.ts';

const listQuery = z.object({
  status: z.enum(ESCROW_STATUSES, `status must be one of ${ESCROW_STATUSES.join(', ')}`).optional(),
  search: z.string().max(254, 'search must be at most 254 characters').optional(),
  limit: z.coerce.number().int('limit must be a whole number').min(1, 'limit must be from 1 to 100').max(100, 'limit must be from 1 to 100').default(25),
  offset: z.coerce.number().int('offset must be a whole number').min(0, 'offset must be 0 or more').max(1_000_000, 'offset is too large').default(0),
});
const page = adminEscrowPageSchema;

/** GET /api/admin/escrows: every escrow for the console, filtered, searched and paged by the server. */
export function adminEscrowListRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(
    adminRoute('get', '/admin/escrows', 'Every escrow, newest first: filter by status, search by id or e-mail, paged (total: how many match)', { request: { query: listQuery } }, {
      200: jsonAnswer('One page of escrows', page),
    }),
    async (c) => jsonText(c, await listEscrowsForAdmin(deps.database.db, c.req.valid('query')), 200),
  );
  return app;
}
