import { OpenAPIHono, z } from '@hono/zod-openapi';
import {
  meSchema,
  recoveryCodesSchema,
  registeredSchema,
  sessionSchema,
  twoFactorEnabledSchema,
  twoFactorSecretSchema,
} from '../../../../contract/users.ts';
import { changePasswordSchema, loginSchema, registerSchema } from '../../../../contract/user-requests.ts';
import { emailTokenSchema, totpCodeSchema } from '../../../../contract/account-requests.ts';
import { DomainError } from '../../../../domain/shared/errors.ts';
import {
  changePassword,
  disableTwoFactor,
  enableTwoFactor,
  login,
  queueVerificationMail,
  recoveryCodesLeft,
  regenerateRecoveryCodes,
  register,
  setupTwoFactor,
  verifyEmailToken,
} from '../../../accounts/commands.ts';
import { findUserById, userView } from '../../../accounts/user-view.ts';
import { consume } from '../../../auth/rate-limit.ts';
import { revokeSession, revokeUserSessions } from '../../../auth/sessions.ts';
import { publicUrl } from '../../../config.ts';
import { formBody, jsonAnswer, jsonBody } from '../../bodies.ts';
import { clientAddress } from '../../client-address.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { AppEnv } from '../../env.ts';
import { route } from '../../route.ts';
import { currentUser, requireUser } from '../../middleware/authenticate.ts';

const message = z.object({ detail: z.string() });

/** /api/auth: registration, sign-in and sessions, the signed-in user (me), 2FA, e-mail confirmation and passwords. */
export function authRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const meta = (c: { get: (k: 'requestId') => string }) => ({ requestId: c.get('requestId') });
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    route(
      'post',
      '/register',
      'Open an account (buyer or seller); a verification link is mailed',
      { request: { body: jsonBody(registerSchema) } },
      {
        201: jsonAnswer('Registered', registeredSchema),
      },
    ),
    async (c) => {
      const input = c.req.valid('json');
      const userId = await register(deps, input, clientAddress(c, deps.config.TRUST_PROXY), meta(c));
      return c.json(
        { detail: 'Account created. Check your e-mail to confirm your address, then sign in.', user_id: userId },
        201,
      );
    },
  );

  app.openapi(
    route(
      'post',
      '/login',
      'Sign in; returns a bearer token',
      { request: { body: jsonBody(loginSchema) } },
      {
        200: jsonAnswer('Signed in', sessionSchema),
      },
    ),
    async (c) => {
      const input = c.req.valid('json');
      const result = await login(deps, input, clientAddress(c, deps.config.TRUST_PROXY), meta(c));
      return c.json(
        {
          access_token: result.token,
          token_type: 'bearer' as const,
          user: userView(result.user, result.mustChangePassword),
        },
        200,
      );
    },
  );

  app.openapi(
    route(
      'get',
      '/me',
      'The signed-in user, with how many recovery codes they have left',
      { middleware: [requireUser()] },
      { 200: jsonAnswer('The user', meSchema) },
    ),
    async (c) => {
      // The whole account: a request carries only what routes act on (SIGNED_IN_USER_COLUMNS).
      const me = await findUserById(db, currentUser(c).id);
      if (!me) throw new DomainError('unauthenticated', 'Not signed in');
      return c.json(
        { ...userView(me, c.get('mustChangePassword')), recovery_codes_left: await recoveryCodesLeft(db, me) },
        200,
      );
    },
  );

  app.openapi(
    route(
      'post',
      '/logout',
      'Revoke this token',
      { middleware: [requireUser()] },
      { 200: jsonAnswer('Signed out', message) },
    ),
    async (c) => {
      await revokeSession(db, c.get('token')!);
      return c.json({ detail: 'Signed out' }, 200);
    },
  );

  app.openapi(
    route(
      'post',
      '/setup-2fa',
      'Draw a TOTP secret; confirm it with verify-2fa',
      { middleware: [requireUser()] },
      {
        200: jsonAnswer('Secret and QR code', twoFactorSecretSchema),
      },
    ),
    async (c) => c.json(await setupTwoFactor(deps, currentUser(c)), 200),
  );

  app.openapi(
    route(
      'post',
      '/verify-2fa',
      'Switch 2FA on with a code; returns recovery codes once',
      { middleware: [requireUser()], request: { body: formBody(totpCodeSchema) } },
      {
        200: jsonAnswer('Enabled', twoFactorEnabledSchema),
      },
    ),
    async (c) => {
      const { totp_code } = c.req.valid('form');
      const codes = await enableTwoFactor(deps, currentUser(c), totp_code, meta(c));
      await revokeUserSessions(db, currentUser(c).id, { except: c.get('token')! });
      return c.json(
        { detail: '2FA enabled. Keep these recovery codes somewhere safe; each works once.', recovery_codes: codes },
        200,
      );
    },
  );

  app.openapi(
    route(
      'post',
      '/recovery-codes',
      'New recovery codes with a current 2FA code; every old one stops working; returns them once',
      {
        middleware: [requireUser()],
        request: { body: formBody(totpCodeSchema) },
      },
      { 200: jsonAnswer('The new codes', recoveryCodesSchema) },
    ),
    async (c) => {
      const codes = await regenerateRecoveryCodes(deps, currentUser(c), c.req.valid('form').totp_code, meta(c));
      return c.json(
        {
          detail: 'New recovery codes made; the old ones no longer work. Keep these somewhere safe; each works once.',
          recovery_codes: codes,
        },
        200,
      );
    },
  );

  app.openapi(
    route(
      'post',
      '/disable-2fa',
      'Switch 2FA off with a code',
      { middleware: [requireUser()], request: { body: formBody(totpCodeSchema) } },
      {
        200: jsonAnswer('Disabled', message),
      },
    ),
    async (c) => {
      const { totp_code } = c.req.valid('form');
      await disableTwoFactor(deps, currentUser(c), totp_code, c.get('token'), meta(c));
      return c.json({ detail: '2FA disabled' }, 200);
    },
  );

  app.openapi(
    route(
      'post',
      '/verify-email',
      'Confirm an e-mail address with the mailed token',
      { request: { body: jsonBody(emailTokenSchema) } },
      {
        200: jsonAnswer('Confirmed', message),
      },
    ),
    async (c) => {
      const { token } = c.req.valid('json');
      await verifyEmailToken({ db, store: deps.store }, token, meta(c));
      return c.json({ detail: 'E-mail address confirmed' }, 200);
    },
  );

  app.openapi(
    route(
      'post',
      '/resend-verification',
      'Mail a new verification link',
      { middleware: [requireUser()] },
      { 200: jsonAnswer('Sent', message) },
    ),
    async (c) => {
      const me = currentUser(c);
      if (me.email_verified) throw new DomainError('conflict', 'Your e-mail address is already confirmed');
      await consume(
        db,
        { bucket: 'resend-verification', max: 5, windowSeconds: 3600 },
        me.id,
        'Too many verification mails',
      );
      await db.transaction().execute((trx) =>
        queueVerificationMail(trx, {
          userId: me.id,
          email: me.email,
          fullName: me.full_name,
          baseUrl: publicUrl(deps.config),
          now: new Date(),
        }),
      );
      return c.json({ detail: `A new link is on its way to ${me.email}` }, 200);
    },
  );

  app.openapi(
    route(
      'post',
      '/change-password',
      'Change your password; other sessions are signed out',
      { middleware: [requireUser()], request: { body: jsonBody(changePasswordSchema) } },
      {
        200: jsonAnswer('Changed', message),
      },
    ),
    async (c) => {
      await changePassword(deps, currentUser(c), c.req.valid('json'), c.get('token')!, meta(c));
      return c.json({ detail: 'Password changed; your other sessions were signed out' }, 200);
    },
  );

  return app;
}
