import { OpenAPIHono } from '@hono/zod-openapi';
import { setPricingSchema } from '../../../../contract/pricing-requests.ts';
import { rateSchema } from '../../../../contract/pricing.ts';
import { settingsAggregate } from '../../../../domain/aggregates.ts';
import { parsePercentToBps, parseRateToCents } from '../../../../domain/money.ts';
import type { AppDeps } from '../../../app-deps.ts';
import { handle } from '../../../commands/handle.ts';
import { pricingInForce } from '../../../pricing/queries.ts';
import { formBody, jsonAnswer } from '../../bodies.ts';
import type { AppEnv } from '../../env.ts';
import { currentUser } from '../../middleware/authenticate.ts';
import { adminRoute } from '../../route.ts';

/** /api/admin/btc-rate: an admin sets the BTC/USD rate and the fee. */
export function adminBtcRateRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    adminRoute('put', '/', 'Set the BTC/USD rate (and optionally the fee)', { request: { body: formBody(setPricingSchema) } }, {
      200: jsonAnswer('Pricing', rateSchema),
    }),
    async (c) => {
      const form = c.req.valid('form');
      const command = {
        type: 'setPricing' as const,
        rate_cents: parseRateToCents(form.btc_usd_rate),
        fee_bps: form.fee_percentage ? parsePercentToBps(form.fee_percentage) : undefined,
      };
      await handle(deps.store, settingsAggregate, 'pricing', command, { actor: currentUser(c).id, requestId: c.get('requestId') });
      return c.json(await pricingInForce(db), 200);
    },
  );

  return app;
}
