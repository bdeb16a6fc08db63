import { OpenAPIHono, z } from '@hono/zod-openapi';
import { rateSchema } from '../../../contract/pricing.ts';
import { settingsAggregate } from '../../../domain/aggregates.ts';
import { bpsToPercent, centsToNumber, parsePercentToBps, parseRateToCents } from '../../../domain/money.ts';
import { DomainError } from '../../../domain/shared/errors.ts';
import { executeCommand } from '../../commands/execute.ts';
import { formBody, jsonAnswer } from '../bodies.ts';
import type { AppDeps } from '../../app-deps.ts';
import type { AppEnv } from '../env.ts';
import { currentUser } from '../middleware/authenticate.ts';
import { adminRoute, route } from '../route.ts';

const rateForm = z.object({
  btc_usd_rate: z.string('btc_usd_rate is required').trim().min(1, 'btc_usd_rate is required'),
  fee_percentage: z.string().trim().optional(),
});

/** The BTC/USD rate and the fee: set by an admin (there is no price API), read by everyone. */
export function pricingRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();

  const current = async () => {
    const row = await db.selectFrom('settings').selectAll().where('id', '=', 1).executeTakeFirst();
    if (!row?.rate_cents || !row.rate_set_at) {
      throw new DomainError('not_ready', 'The BTC/USD rate has not been set yet; an admin must set it before escrows can be created');
    }
    return {
      btc_usd_rate: centsToNumber(row.rate_cents),
      fee_percentage: bpsToPercent(row.fee_bps),
      rate_set_at: row.rate_set_at.toISOString(),
      fee_set_at: row.fee_set_at?.toISOString() ?? null,
    };
  };

  app.openapi(route('get', '/btc-rate', 'The rate and fee in force, and when they were set', {}, { 200: jsonAnswer('Pricing', rateSchema) }), async (c) =>
    c.json(await current(), 200),
  );

  app.openapi(
    adminRoute('put', '/admin/btc-rate', 'Set the BTC/USD rate (and optionally the fee)', { request: { body: formBody(rateForm) } }, {
      200: jsonAnswer('Pricing', rateSchema),
    }),
    async (c) => {
      const form = c.req.valid('form');
      const command = {
        type: 'setPricing' as const,
        rate_cents: parseRateToCents(form.btc_usd_rate),
        fee_bps: form.fee_percentage ? parsePercentToBps(form.fee_percentage) : undefined,
      };
      await executeCommand({ db, store: deps.store }, settingsAggregate, 'pricing', command, { actor: currentUser(c).id, requestId: c.get('requestId') });
      return c.json(await current(), 200);
    },
  );

  return app;
}
