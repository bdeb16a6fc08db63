import type { MiddlewareHandler } from 'hono';
import { DomainError } from '../../../domain/shared/errors.ts';
import { passSecondFactor } from '../../accounts/second-factor.ts';
import type { AppDeps } from '../../app-deps.ts';
import type { AppEnv } from '../env.ts';

/**
 * Every admin power: whatever moves money or grants power. Reads (GET) and moderation of reviews are not powers;
 * replay and export are read-only or operator tools.
 */
export const POWERS: ReadonlyArray<readonly [method: string, path: RegExp]> = [
  ['POST', /^\/api\/admin\/escrows\/[^/]+\/(verify-payment|release|refund|freeze|unfreeze|assign-address|cancel)$/],
  ['POST', /^\/api\/admin\/disputes\/[^/]+\/resolve$/],
  ['PUT', /^\/api\/admin\/users\/[^/]+$/], // name, e-mail and role
  ['DELETE', /^\/api\/admin\/users\/[^/]+$/],
  ['POST', /^\/api\/admin\/users\/[^/]+\/(suspend|unsuspend|reset-password|cancel-unpaid-escrows)$/],
  ['PUT', /^\/api\/admin\/btc-rate$/], // the rate and the fee
  ['POST', /^\/api\/admin\/addresses$/],
  ['POST', /^\/api\/admin\/addresses\/bulk$/], // many addresses, one code
  ['PUT', /^\/api\/admin\/addresses\/[^/]+$/],
  ['DELETE', /^\/api\/admin\/addresses\/[^/]+$/],
  // A webhook endpoint starts every escrow's events flowing out: making or re-enabling one is a power. Disabling,
  // deleting, a test and a redelivery stop the flow or repeat what was already approved: not powers.
  ['POST', /^\/api\/admin\/webhooks$/],
  ['POST', /^\/api\/admin\/webhooks\/[^/]+\/enable$/],
];

export const isAdminPower = (method: string, path: string) => POWERS.some(([m, p]) => m === method && p.test(path));

/**
 * Every admin route that writes yet is no power, each with the reason it needs no code. Every non-GET admin route of
 * the app is on exactly one of the two lists (admin-step-up-routes.int.test.ts reads the routes from the app), so a
 * new one is a decision, not a default.
 */
export const NOT_POWERS: ReadonlyArray<readonly [method: string, path: RegExp, reason: string]> = [
  ['POST', /^\/api\/admin\/reviews\/[^/]+\/(approve|reject|edit|reopen)$/, 'review moderation: moves no money, grants no power'],
  ['DELETE', /^\/api\/admin\/reviews\/[^/]+$/, 'review moderation: moves no money, grants no power'],
  ['POST', /^\/api\/admin\/replay$/, 'rebuilds the read models from the log: appends no event, moves no money'],
  ['POST', /^\/api\/admin\/escrows\/[^/]+\/payment-proof$/, 'checks a payment proof and shows what it proves: records nothing, moves no money'],
  ['POST', /^\/api\/admin\/webhooks\/[^/]+\/(disable|test)$/, 'stops an endpoint, or sends it a test: starts no flow of escrow events'],
  ['DELETE', /^\/api\/admin\/webhooks\/[^/]+$/, 'removes an endpoint: stops the flow, sends nothing new'],
  ['POST', /^\/api\/admin\/webhooks\/deliveries\/[^/]+\/redeliver$/, 'repeats a delivery an approved endpoint already had'],
];

/** `totp_code` from a form or JSON body (or the `X-TOTP-Code` header, for a DELETE without a body). */
async function codeOf(c: Parameters<MiddlewareHandler<AppEnv>>[0]): Promise<string | undefined> {
  const header = c.req.header('x-totp-code');
  const type = c.req.header('content-type') ?? '';
  let fromBody: unknown;
  try {
    if (type.includes('application/json')) fromBody = ((await c.req.json()) as Record<string, unknown> | null)?.totp_code;
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
 * any power (403, `admin_totp_not_enabled`), though they can still sign in and switch 2FA on. Anyone else passes
 * through to the route, which answers 401 or 403 as before.
 */
export function adminStepUp(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async function adminStepUpMiddleware(c, next) {
    const user = c.get('user');
    if (!user || user.role !== 'admin' || !isAdminPower(c.req.method, c.req.path)) return next();
    if (!user.totp_enabled) {
      if (deps.config.ADMIN_2FA_REQUIRED) {
        throw new DomainError(
          'forbidden',
          'Admin powers need 2FA on this server: set up two-factor authentication on your profile page, then give a code from your authenticator app with each admin action',
          {},
          'admin_totp_not_enabled',
        );
      }
      return next();
    }
    await passSecondFactor(deps, user, await codeOf(c), {
      missing: 'A 2FA code is required: every admin power needs a fresh code from your authenticator app',
      meta: { actor: user.id, requestId: c.get('requestId') },
    });
    return next();
  };
}
