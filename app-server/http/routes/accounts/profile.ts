import { OpenAPIHono } from '@hono/zod-openapi';
import { switchRoleSchema } from '../../../../contract/account-requests.ts';
import { userSchema } from '../../../../contract/users.ts';
import type { AppDeps } from '../../../app-deps.ts';
import { switchRole } from '../../../accounts/commands.ts';
import { formBody, jsonAnswer } from '../../bodies.ts';
import type { AppEnv } from '../../env.ts';
import { currentUser, requireUser } from '../../middleware/authenticate.ts';
import { route } from '../../route.ts';

/** /api/profile: what a signed-in user changes about their own account. */
export function profileRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    route(
      'post',
      '/switch-role',
      'Switch between buyer and seller',
      { middleware: [requireUser()], request: { body: formBody(switchRoleSchema) } },
      {
        200: jsonAnswer('Switched', userSchema),
      },
    ),
    async (c) => {
      const { new_role } = c.req.valid('form');
      return c.json(await switchRole(deps, currentUser(c), new_role, { requestId: c.get('requestId') }), 200);
    },
  );

  return app;
}
