import { OpenAPIHono } from '@hono/zod-openapi';
import { setPricingSchema } from '../../../../contract/pricing-requests.ts';
import { rateSchema } from '../../../../contract/pricing.ts';
import type { AppDeps } from '../../../app-deps.ts';
import { setPricing } from '../../../pricing/commands.ts';
import { formBody, jsonAnswer } from '../../bodies.ts';
import type { AppEnv } from '../../env.ts';
import { commandMeta } from '../../command-meta.ts';
import { adminRoute } from '../../route.ts';
import { ADMIN_POWER } from '../../middleware/admin-step-up.ts';

/** /api/admin/btc-rate: an admin sets the BTC/USD rate and the fee. */
export function adminBtcRateRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    adminRoute(
      'put',
      '/',
      'Set the BTC/USD rate (and optionally the fee)',
      { request: { body: formBody(setPricingSchema) } },
      {
        200: jsonAnswer('Pricing', rateSchema),
      },
      ADMIN_POWER,
    ),
    async (c) => {
      return c.json(await setPricing(deps, c.req.valid('form'), commandMeta(c)), 200);
    },
  );

  return app;
}
