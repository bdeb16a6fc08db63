import { OpenAPIHono, z } from '@hono/zod-openapi';
import { adminDisputesSchema, escrowSchema } from '../../../../../contract/escrows.ts';
import { wholeNumber } from '../../../../../contract/input-fields.ts';
import type { AppDeps } from '../../../../app-deps.ts';
import { resolveDispute } from '../../../../escrows/commands.ts';
import { disputesForAdmin } from '../../../../escrows/queries.ts';
import { currentUser } from '../../../middleware/authenticate.ts';
import { formBody, jsonAnswer, jsonText } from '../../../bodies.ts';
import type { AppEnv } from '../../../env.ts';
import { adminRoute } from '../../../route.ts';
import { escrowActing, expectedAddressField as expectedAddress, optionalTxid, totpField as totp } from '../../escrows/acting.ts';

const resolveForm = z.object({
  outcome: z.string('outcome is required').trim().min(1, 'outcome is required').max(5000),
  resolution: z.enum(['release', 'refund', 'split'], 'resolution must be release, refund or split').optional(),
  // A form's empty field is no split percentage, not zero.
  seller_percent: z.preprocess((value) => (value === '' ? undefined : value), wholeNumber('seller_percent').optional()),
  txid: optionalTxid,
  totp_code: totp,
  expected_address: expectedAddress,
  expected_refund_address: expectedAddress,
});

/** /api/admin/disputes: the disputes, open first, and their resolution, which may move the money. */
export function adminDisputeRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();
  const { answer, meta } = escrowActing(deps);

  app.openapi(adminRoute('post', '/{id}/resolve', 'Resolve an open dispute, optionally moving the money', { request: { params: z.object({ id: z.uuid('id must be a dispute id') }), body: formBody(resolveForm) } }, { 200: jsonAnswer('The escrow after the action', escrowSchema) }), async (c) => {
    const form = c.req.valid('form');
    const escrowId = await resolveDispute(
      deps,
      c.req.valid('param').id,
      {
        outcome: form.outcome,
        resolution: form.resolution ?? null,
        seller_percent: form.seller_percent ?? null,
        txid: form.txid,
        expected_address: form.expected_address,
        expected_refund_address: form.expected_refund_address,
      },
      meta(c),
    );
    return jsonText(c, await answer(escrowId, currentUser(c)), 200);
  });
  app.openapi(adminRoute('get', '/', 'Disputes, open first, newest first', {}, { 200: jsonAnswer('Disputes', adminDisputesSchema) }), async (c) => {
    return c.json(await disputesForAdmin(db), 200);
  });

  return app;
}
