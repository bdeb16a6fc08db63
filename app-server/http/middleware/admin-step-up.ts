import type { Context, MiddlewareHandler, Next } from 'hono';
import { DomainError } from '../../../domain/shared/errors.ts';
import { passSecondFactor } from '../../accounts/second-factor.ts';
import type { AppDeps } from '../../app-deps.ts';
import type { AppEnv } from '../env.ts';

/**
 * Whether an admin route needs a fresh second factor, declared where the route is declared (the last argument of
 * `adminRoute()`, or of `route()` for the routes an admin and a user share): an admin power (whatever moves money or
 * grants power) asks for one; any other admin write names the reason it needs none. Reads (GET) declare nothing.
 * admin-step-up-routes.int.test.ts reads the declarations from the app's routes, so a new admin write is a decision,
 * not a default.
 */
export type SecondFactorNeed = { readonly power: true } | { readonly power: false; readonly reason: string };

/** An admin power: a fresh 2FA code with every call. */
export const ADMIN_POWER: SecondFactorNeed = { power: true };

/** An admin write that is no power, and why it needs no code. */
export const notAPower = (reason: string): SecondFactorNeed => ({ power: false, reason });

/** What the app's step-up runs for a power; set on every request by `adminStepUp` below. */
export type StepUpCheck = NonNullable<AppEnv['Variables']['stepUp']>;

/** The route's declaration as the first middleware after the role check: runs the step-up for a power. */
export function secondFactorMiddleware(need: SecondFactorNeed): MiddlewareHandler<AppEnv> {
  if (!need.power)
    return Object.assign(
      async function notAPowerMiddleware(_c: Context<AppEnv>, next: Next) {
        await next();
      },
      { reason: need.reason },
    );
  return async function adminPowerMiddleware(c, next) {
    const check = c.get('stepUp');
    if (!check) throw new Error('An admin power was called on an app without the admin step-up');
    await check(c);
    await next();
  };
}

/** `totp_code` from a form or JSON body (or the `X-TOTP-Code` header, for a DELETE without a body). */
async function codeOf(c: Context<AppEnv>): Promise<string | undefined> {
  const header = c.req.header('x-totp-code');
  const type = c.req.header('content-type') ?? '';
  let fromBody: unknown;
  try {
    if (type.includes('application/json'))
      fromBody = ((await c.req.json()) as Record<string, unknown> | null)?.totp_code;
    else if (type.includes('form')) fromBody = (await c.req.parseBody())['totp_code'];
  } catch {
    fromBody = undefined; // a malformed body is the route's to refuse, naming the field
  }
  const code = typeof fromBody === 'string' && fromBody.trim() ? fromBody : header;
  return code?.trim() ? code.trim().slice(0, 32) : undefined;
}

/**
 * Step-up for admin powers, in one place: an admin with 2FA on sends a fresh code (`totp_code`) with every power,
 * checked through the one counter of wrong codes; while `ADMIN_2FA_REQUIRED` is true an admin without 2FA cannot use
 * any power (403, `admin_totp_not_enabled`), though they can still sign in and switch 2FA on. Which routes are powers
 * is declared on each route (`ADMIN_POWER`); this middleware gives those routes the check.
 */
export function adminStepUp(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const check: StepUpCheck = async (c) => {
    const user = c.get('user');
    if (!user || user.role !== 'admin') return; // the route's role check answers 401 or 403
    if (!user.totp_enabled) {
      if (deps.config.ADMIN_2FA_REQUIRED) {
        throw new DomainError(
          'forbidden',
          'Admin powers need 2FA on this server: set up two-factor authentication on your profile page, then give a code from your authenticator app with each admin action',
          {},
          'admin_totp_not_enabled',
        );
      }
      return;
    }
    await passSecondFactor(deps, user, await codeOf(c), {
      missing: 'A 2FA code is required: every admin power needs a fresh code from your authenticator app',
      meta: { actor: user.id, requestId: c.get('requestId') },
    });
  };
  return async function adminStepUpMiddleware(c, next) {
    c.set('stepUp', check);
    await next();
  };
}
