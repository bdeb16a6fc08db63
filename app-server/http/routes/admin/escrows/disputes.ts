import { OpenAPIHono, z } from '@hono/zod-openapi';
import { adminDisputesSchema, escrowSchema } from '../../../../../contract/escrows.ts';
import { conflict, notFound } from '../../../../../domain/shared/errors.ts';
import { wholeNumber } from '../../../../../domain/shared/schemas.ts';
import type { AppDeps } from '../../../../app-deps.ts';
import { assertMoneyMayMove } from '../../../../escrows/money-guard.ts';
import { disputeById, disputesForAdmin } from '../../../../escrows/queries.ts';
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
  const { act } = escrowActing(deps);

  app.openapi(adminRoute('post', '/{id}/resolve', 'Resolve an open dispute, optionally moving the money', { request: { params: z.object({ id: z.uuid('id must be a dispute id') }), body: formBody(resolveForm) } }, { 200: jsonAnswer('The escrow after the action', escrowSchema) }), async (c) => {
    const form = c.req.valid('form');
    const disputeId = c.req.valid('param').id;
    const dispute = await disputeById(db, disputeId);
    if (!dispute) throw notFound('Dispute not found');
    if (dispute.status !== 'open') throw conflict('This dispute is already resolved; only the escrow\'s open dispute can be resolved');
    await assertMoneyMayMove(deps, dispute.escrow_id);
    return jsonText(
      c,
      await act(c, dispute.escrow_id, () => ({
        type: 'resolveDispute',
        by: 'admin',
        outcome: form.outcome,
        resolution: form.resolution ?? null,
        seller_percent: form.seller_percent ?? null,
        txid: form.txid,
        dispute_id: disputeId,
        expected_address: form.expected_address,
        expected_refund_address: form.expected_refund_address,
      })),
      200,
    );
  });
  app.openapi(adminRoute('get', '/', 'Disputes, open first, newest first', {}, { 200: jsonAnswer('Disputes', adminDisputesSchema) }), async (c) => {
    return c.json(await disputesForAdmin(db), 200);
  });

  return app;
}
