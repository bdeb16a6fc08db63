import { OpenAPIHono } from '@hono/zod-openapi';
import { rateSchema } from '../../../../contract/pricing.ts';
import type { AppDeps } from '../../../app-deps.ts';
import { pricingInForce } from '../../../pricing/queries.ts';
import { jsonAnswer } from '../../bodies.ts';
import type { AppEnv } from '../../env.ts';
import { route } from '../../route.ts';

/** /api/btc-rate: the BTC/USD rate and the fee, read by everyone (an admin sets them, there is no price API). */
export function btcRateRoutes(deps: AppDeps) {
  const { db } = deps.database;
  return new OpenAPIHono<AppEnv>().openapi(
    route(
      'get',
      '/',
      'The rate and fee in force, and when they were set',
      {},
      { 200: jsonAnswer('Pricing', rateSchema) },
    ),
    async (c) => c.json(await pricingInForce(db), 200),
  );
}
