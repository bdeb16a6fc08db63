import { OpenAPIHono } from '@hono/zod-openapi';
import { setupTokenSchema } from '../../../../contract/account-requests.ts';
import { errorSchema } from '../../../../contract/errors.ts';
import { firstAdminCreatedSchema, setupStatusSchema } from '../../../../contract/setup.ts';
import { firstAdminSchema } from '../../../../contract/user-requests.ts';
import { createFirstAdmin } from '../../../accounts/commands.ts';
import { setupTokenValid } from '../../../accounts/first-admin-setup.ts';
import { findUserById, userView } from '../../../accounts/user-view.ts';
import { jsonAnswer, jsonBody } from '../../bodies.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { AppEnv } from '../../env.ts';
import { route } from '../../route.ts';

/** /api/setup, the first start: the one-time link a fresh server prints opens /setup, which creates the first admin here. */
export function setupRoutes(deps: AppDeps) {
  const { db } = deps.database;
  return new OpenAPIHono<AppEnv>()
    .openapi(
      route(
        'post',
        '/status',
        'Whether a setup link still works (issued, unused, and no admin exists yet)',
        { request: { body: jsonBody(setupTokenSchema) } },
        {
          200: jsonAnswer('Whether the link works', setupStatusSchema),
        },
      ),
      async (c) =>
        c.json(
          {
            valid: await setupTokenValid(db, c.req.valid('json').token),
            admin_2fa_required: deps.config.ADMIN_2FA_REQUIRED,
          },
          200,
        ),
    )
    .openapi(
      route(
        'post',
        '/admin',
        'Create the first admin with a setup link, and sign them in; the link (and every other) then stops working',
        { request: { body: jsonBody(firstAdminSchema) } },
        {
          201: jsonAnswer('The first admin, signed in', firstAdminCreatedSchema),
          409: jsonAnswer('The link was used, or an admin exists (code setup_link_invalid)', errorSchema),
        },
      ),
      async (c) => {
        const input = c.req.valid('json');
        const created = await createFirstAdmin(deps, input.token, input, c.get('requestId'));
        const user = (await findUserById(db, created.userId))!;
        return c.json({ access_token: created.token, token_type: 'bearer' as const, user: userView(user) }, 201);
      },
    );
}
