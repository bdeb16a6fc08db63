import { OpenAPIHono } from '@hono/zod-openapi';
import { switchRoleSchema } from '../../../../contract/account-requests.ts';
import { userSchema } from '../../../../contract/users.ts';
import { userAggregate } from '../../../../domain/aggregates.ts';
import type { AppDeps } from '../../../app-deps.ts';
import { handle } from '../../../commands/handle.ts';
import { findUserById, userView } from '../../../accounts/user-view.ts';
import { formBody, jsonAnswer } from '../../bodies.ts';
import type { AppEnv } from '../../env.ts';
import { currentUser, requireUser } from '../../middleware/authenticate.ts';
import { route } from '../../route.ts';

/** /api/profile: what a signed-in user changes about their own account. */
export function profileRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    route('post', '/switch-role', 'Switch between buyer and seller', { middleware: [requireUser()], request: { body: formBody(switchRoleSchema) } }, {
      200: jsonAnswer('Switched', userSchema),
    }),
    async (c) => {
      const me = currentUser(c);
      const { new_role } = c.req.valid('form');
      await handle(deps.store, userAggregate, me.id, { type: 'switchRole', to: new_role }, { requestId: c.get('requestId'), actor: me.id });
      return c.json(userView((await findUserById(db, me.id))!), 200);
    },
  );

  return app;
}
