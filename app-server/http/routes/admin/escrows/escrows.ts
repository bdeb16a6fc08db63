import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { z } from 'zod';
import {
  adminCancelSchema,
  adminEscrowListQuerySchema,
  assignAddressSchema,
  freezeReasonSchema,
  paymentNotesSchema,
  paymentProofAnswerSchema,
  paymentProofCheckSchema,
  resolutionOf,
  resolveDisputeSchema,
  verifyPaymentSchema,
} from '../../../../../contract/admin-escrow-requests.ts';
import { escrowIdParam as idParam } from '../../../../../contract/escrow-requests.ts';
import { adminEscrowHistorySchema, adminEscrowPageSchema, escrowSchema } from '../../../../../contract/escrows.ts';
import { DomainError, notFound } from '../../../../../domain/shared/errors.ts';
import type { AppDeps } from '../../../../app-deps.ts';
import { listEscrowsForAdmin } from '../../../../escrows/admin-list.ts';
import {
  assignPaymentAddress,
  cancelUnpaidByAdmin,
  type EscrowAfter,
  payOut,
  resolveEscrow,
  reviewPayment,
} from '../../../../escrows/commands.ts';
import { poolAddress } from '../../../../addresses/queries.ts';
import { findVisibleEscrow } from '../../../../escrows/parties.ts';
import { escrowHistoryForAdmin } from '../../../../escrows/queries.ts';
import { checkEscrowPaymentProof } from '../../../../escrows/payment-proof.ts';
import { formBody, jsonAnswer, jsonText, rowsAnswer } from '../../../bodies.ts';
import type { AppEnv } from '../../../env.ts';
import { currentUser } from '../../../middleware/authenticate.ts';
import { adminRoute } from '../../../route.ts';
import { ADMIN_POWER, notAPower } from '../../../middleware/admin-step-up.ts';
import { escrowActing } from '../../escrows/acting.ts';

const escrowAnswer = jsonAnswer('The escrow after the action', escrowSchema);

/** /api/admin/escrows: every escrow for the console, one escrow's history, and the admins' actions on it. */
export function adminEscrowRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();
  const { load, answer, answerAfter, meta, act } = escrowActing(deps);
  /** A money action on an escrow the admin can see (404 otherwise), answered with the escrow as it left it. */
  const afterMoneyAction = async (c: Context<AppEnv>, id: string, run: () => Promise<EscrowAfter>) => {
    const { side } = await load(id, currentUser(c));
    return jsonText<z.infer<typeof escrowSchema>, 200>(c, answerAfter(await run(), side), 200);
  };

  app.openapi(
    adminRoute(
      'get',
      '/',
      'Every escrow, newest first: filter by status, search by id or e-mail, paged (total: how many match)',
      { request: { query: adminEscrowListQuerySchema } },
      {
        200: jsonAnswer('One page of escrows', adminEscrowPageSchema),
      },
    ),
    async (c) => jsonText(c, await listEscrowsForAdmin(deps.database.db, c.req.valid('query')), 200),
  );

  app.openapi(
    adminRoute(
      'get',
      '/{id}/history',
      'The escrow event by event, with its status after each',
      { request: { params: idParam } },
      { 200: rowsAnswer('The escrow event by event', adminEscrowHistorySchema) },
    ),
    async (c) => {
      const history = await escrowHistoryForAdmin(db, c.req.valid('param').id);
      if (history.length === 0) throw notFound('Escrow not found');
      return c.json(history, 200);
    },
  );

  app.openapi(
    adminRoute(
      'post',
      '/{id}/verify-payment',
      'Verify (funded) or reject the marked payment',
      { request: { params: idParam, body: formBody(verifyPaymentSchema) } },
      { 200: escrowAnswer },
      ADMIN_POWER,
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const form = c.req.valid('form');
      const proof =
        form.tx_hex !== undefined && form.txout_proof !== undefined
          ? {
              tx_hex: form.tx_hex,
              txout_proof: form.txout_proof,
              headers: form.headers ?? '',
              accept_partial: form.accept_partial === 'true',
            }
          : undefined;
      return afterMoneyAction(c, id, () =>
        reviewPayment(
          deps,
          id,
          { verified: form.verified === 'true', notes: form.notes, txid: form.txid, ...(proof ? { proof } : {}) },
          meta(c),
        ),
      );
    },
  );
  app.openapi(
    adminRoute(
      'post',
      '/{id}/payment-proof',
      'What a payment proof (SPV) proves for this escrow, recording nothing: the Verify dialog shows it before confirming',
      {
        request: { params: idParam, body: formBody(paymentProofCheckSchema) },
      },
      { 200: jsonAnswer('What the proof proves', paymentProofAnswerSchema) },
      notAPower('checks a payment proof and shows what it proves: records nothing, moves no money'),
    ),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      const form = c.req.valid('form');
      await load(id, user);
      const proven = await checkEscrowPaymentProof(deps, id, {
        tx_hex: form.tx_hex ?? '',
        txout_proof: form.txout_proof ?? '',
        headers: form.headers ?? '',
        accept_partial: form.accept_partial === 'true',
      });
      return c.json(proven, 200);
    },
  );
  const payOuts = [
    { to: 'release', summary: 'Release a funded escrow to the seller' },
    { to: 'refund', summary: 'Refund a funded escrow to the buyer' },
  ] as const;
  for (const { to, summary } of payOuts) {
    app.openapi(
      adminRoute(
        'post',
        `/{id}/${to}`,
        summary,
        { request: { params: idParam, body: formBody(paymentNotesSchema) } },
        { 200: escrowAnswer },
        ADMIN_POWER,
      ),
      async (c) => {
        const form = c.req.valid('form');
        const { id } = c.req.valid('param');
        return afterMoneyAction(c, id, () =>
          payOut(
            deps,
            id,
            { to, notes: form.notes, txid: form.txid, expected_address: form.expected_address },
            meta(c),
          ),
        );
      },
    );
  }
  app.openapi(
    adminRoute(
      'post',
      '/{id}/resolve',
      'Execute the refund or split both parties agreed to (no outcome needed), or resolve the open dispute',
      {
        request: { params: idParam, body: formBody(resolveDisputeSchema) },
      },
      { 200: escrowAnswer },
      ADMIN_POWER,
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      return afterMoneyAction(c, id, () => resolveEscrow(deps, id, resolutionOf(c.req.valid('form')), meta(c)));
    },
  );
  const freezes = [
    { type: 'freeze', summary: 'Freeze an escrow that is not final' },
    { type: 'unfreeze', summary: 'Unfreeze: back to where it was' },
  ] as const;
  for (const { type, summary } of freezes) {
    app.openapi(
      adminRoute(
        'post',
        `/{id}/${type}`,
        summary,
        { request: { params: idParam, body: formBody(freezeReasonSchema) } },
        { 200: escrowAnswer },
        ADMIN_POWER,
      ),
      async (c) =>
        jsonText(
          c,
          await act(c, c.req.valid('param').id, () => ({ type, by: 'admin', reason: c.req.valid('form').reason })),
          200,
        ),
    );
  }

  app.openapi(
    adminRoute(
      'post',
      '/{id}/cancel',
      'Cancel an unpaid escrow with a reason (mailed to both parties); its payment address goes back to the pool',
      {
        request: { params: idParam, body: formBody(adminCancelSchema) },
      },
      { 200: escrowAnswer },
      ADMIN_POWER,
    ),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      await load(id, user);
      await cancelUnpaidByAdmin(deps.store, { escrowId: id, reason: c.req.valid('form').reason }, meta(c));
      return jsonText(c, await answer(id, user), 200);
    },
  );

  app.openapi(
    adminRoute(
      'post',
      '/{id}/assign-address',
      'Give a waiting escrow a chosen pool address',
      { request: { params: idParam, body: formBody(assignAddressSchema) } },
      {
        200: jsonAnswer('The escrow with its address', escrowSchema),
      },
      ADMIN_POWER,
    ),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      await findVisibleEscrow(db, id, user);
      const address = await poolAddress(db, c.req.valid('form').address_id);
      if (!address) throw notFound('Address not found');
      if (address.status !== 'available')
        throw new DomainError('conflict', `This address is ${address.status}; choose an available one`);
      await assignPaymentAddress(
        deps.store,
        { escrowId: id, addressId: address.id, address: address.address_string, by: 'admin' },
        meta(c),
      );
      return jsonText(c, (await findVisibleEscrow(db, id, user)).answer, 200);
    },
  );

  return app;
}
