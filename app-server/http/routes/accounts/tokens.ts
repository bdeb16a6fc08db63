import { OpenAPIHono, z } from '@hono/zod-openapi';
import {
  apiTokenIdParam,
  apiTokensSchema,
  createApiTokenSchema,
  createdApiTokenSchema,
} from '../../../../contract/api-tokens.ts';
import { assertMayHoldApiToken, createApiToken, listApiTokens, revokeApiToken } from '../../../accounts/api-tokens.ts';
import { passSecondFactor } from '../../../accounts/second-factor.ts';
import type { AppDeps } from '../../../app-deps.ts';
import { jsonAnswer, jsonBody } from '../../bodies.ts';
import type { AppEnv } from '../../env.ts';
import { currentUser, requireUser } from '../../middleware/authenticate.ts';
import { route } from '../../route.ts';

/** /api/tokens: a signed-in user's API tokens (a session only: a token never reaches these). */
export function apiTokenRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();
  const signedIn = { middleware: [requireUser()] };

  app.openapi(
    route('get', '/', 'Your live API tokens with their last use', signedIn, {
      200: jsonAnswer('Tokens, newest first', apiTokensSchema),
    }),
    async (c) => c.json(await listApiTokens(db, currentUser(c).id), 200),
  );

  app.openapi(
    route(
      'post',
      '/',
      'Make an API token (read and/or write; a 2FA code when 2FA is on): the token is in this answer only',
      { ...signedIn, request: { body: jsonBody(createApiTokenSchema) } },
      {
        201: jsonAnswer('The token, shown once', createdApiTokenSchema),
      },
    ),
    async (c) => {
      const user = currentUser(c);
      const input = c.req.valid('json');
      assertMayHoldApiToken(user);
      if (user.totp_enabled) {
        await passSecondFactor(deps, user, input.totp_code, {
          missing: 'totp_code is required: your 2FA is on',
          meta: { actor: user.id, requestId: c.get('requestId') },
        });
      }
      return c.json(await createApiToken(db, user, input), 201);
    },
  );

  app.openapi(
    route(
      'delete',
      '/{id}',
      'Revoke an API token',
      { ...signedIn, request: { params: apiTokenIdParam } },
      { 200: jsonAnswer('Revoked', z.object({ detail: z.string() })) },
    ),
    async (c) => {
      await revokeApiToken(db, currentUser(c).id, c.req.valid('param').id);
      return c.json({ detail: 'API token revoked' }, 200);
    },
  );

  return app;
}
