import { OpenAPIHono, z } from '@hono/zod-openapi';
import { usersSchema } from '../../../../contract/users.ts';
import {
  cancelledUnpaidEscrowsSchema,
  cancelUnpaidEscrowsSchema,
  resetPasswordSchema,
  suspendUserSchema,
  userIdParam as idParam,
  userUpdateSchema,
} from '../../../../contract/admin-user-requests.ts';
import { deleteUser, resetPassword, suspendUser, unsuspendUser, updateUser } from '../../../accounts/commands.ts';
import { usersForAdmin } from '../../../accounts/queries.ts';
import { cancelUnpaidEscrowsOf } from '../../../escrows/cancel-unpaid.ts';
import { userView } from '../../../accounts/user-view.ts';
import { formBody, jsonAnswer } from '../../bodies.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { AppEnv } from '../../env.ts';
import { adminRoute } from '../../route.ts';
import { ADMIN_POWER } from '../../middleware/admin-step-up.ts';
import { currentUser } from '../../middleware/authenticate.ts';

const message = z.object({ detail: z.string() });

/** /api/admin/users: the user list and what an operator may do to an account. */
export function adminUserRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  const meta = (c: Parameters<typeof currentUser>[0] & { get: (k: 'requestId') => string }) => ({
    actor: currentUser(c).id,
    requestId: c.get('requestId'),
  });

  app.openapi(
    adminRoute('get', '/', 'Every account, newest first', {}, { 200: jsonAnswer('Users', usersSchema) }),
    async (c) => {
      const users = await usersForAdmin(deps.database.db);
      return c.json(
        users.map(({ must_change, ...user }) => userView(user, must_change ?? false)),
        200,
      );
    },
  );

  app.openapi(
    adminRoute(
      'put',
      '/{id}',
      'Change name, e-mail or role (only the non-empty fields)',
      { request: { params: idParam, body: formBody(userUpdateSchema) } },
      {
        200: jsonAnswer('Updated', message),
      },
      ADMIN_POWER,
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const form = c.req.valid('form');
      await updateUser(deps, id, form, meta(c));
      return c.json({ detail: 'User updated successfully' }, 200);
    },
  );

  app.openapi(
    adminRoute(
      'post',
      '/{id}/suspend',
      'Suspend an account (signs it out everywhere)',
      { request: { params: idParam, body: formBody(suspendUserSchema) } },
      {
        200: jsonAnswer('Suspended', message),
      },
      ADMIN_POWER,
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const { reason } = c.req.valid('form');
      await suspendUser(deps, id, reason, meta(c));
      return c.json({ detail: 'User suspended' }, 200);
    },
  );

  app.openapi(
    adminRoute(
      'post',
      '/{id}/unsuspend',
      'Lift a suspension',
      { request: { params: idParam } },
      { 200: jsonAnswer('Unsuspended', message) },
      ADMIN_POWER,
    ),
    async (c) => {
      await unsuspendUser(deps, c.req.valid('param').id, meta(c));
      return c.json({ detail: 'User unsuspended' }, 200);
    },
  );

  app.openapi(
    adminRoute(
      'delete',
      '/{id}',
      'Delete an account with no unfinished escrow',
      { request: { params: idParam } },
      { 200: jsonAnswer('Deleted', message) },
      ADMIN_POWER,
    ),
    async (c) => {
      await deleteUser(deps, c.req.valid('param').id, meta(c));
      return c.json({ detail: 'User deleted successfully' }, 200);
    },
  );

  app.openapi(
    adminRoute(
      'post',
      '/{id}/cancel-unpaid-escrows',
      'Cancel every unpaid escrow of a suspended account, freeing their payment addresses',
      {
        request: { params: idParam, body: formBody(cancelUnpaidEscrowsSchema) },
      },
      { 200: jsonAnswer('What was cancelled, and what was left with why', cancelledUnpaidEscrowsSchema) },
      ADMIN_POWER,
    ),
    async (c) => {
      const result = await cancelUnpaidEscrowsOf(deps, c.req.valid('param').id, c.req.valid('form').reason, meta(c));
      const left = result.skipped.length ? `; ${result.skipped.length} left (see skipped)` : '';
      return c.json(
        {
          detail: `${result.cancelled.length} unpaid escrow${result.cancelled.length === 1 ? '' : 's'} cancelled${left}`,
          ...result,
        },
        200,
      );
    },
  );

  app.openapi(
    adminRoute(
      'post',
      '/{id}/reset-password',
      'Set a temporary password and sign the user out',
      { request: { params: idParam, body: formBody(resetPasswordSchema) } },
      {
        200: jsonAnswer('Reset', message),
      },
      ADMIN_POWER,
    ),
    async (c) => {
      const { temporary_password } = c.req.valid('form');
      await resetPassword(deps, c.req.valid('param').id, temporary_password, meta(c));
      return c.json({ detail: 'Temporary password set; the user was signed out everywhere' }, 200);
    },
  );

  return app;
}
