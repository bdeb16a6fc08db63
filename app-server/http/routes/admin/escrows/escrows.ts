import { OpenAPIHono, z } from '@hono/zod-openapi';
import { adminEscrowHistorySchema, adminEscrowPageSchema, escrowSchema } from '../../../../../contract/escrows.ts';
import { DomainError, notFound } from '../../../../../domain/shared/errors.ts';
import type { AppDeps } from '../../../../app-deps.ts';
import { ESCROW_STATUSES, listEscrowsForAdmin } from '../../../../escrows/admin-list.ts';
import { assignPaymentAddress, payOut, reviewPayment } from '../../../../escrows/commands.ts';
import { poolAddress } from '../../../../addresses/queries.ts';
import { findVisibleEscrow } from '../../../../escrows/parties.ts';
import { escrowHistoryForAdmin } from '../../../../escrows/queries.ts';
import { formBody, jsonAnswer, jsonText, rowsAnswer } from '../../../bodies.ts';
import type { AppEnv } from '../../../env.ts';
import { currentUser } from '../../../middleware/authenticate.ts';
import { adminRoute } from '../../../route.ts';
import { escrowActing, escrowIdParam as idParam, expectedAddressField as expectedAddress, optionalTxid, totpField as totp } from '../../escrows/acting.ts';

const listQuery = z.object({
  status: z.enum(ESCROW_STATUSES, `status must be one of ${ESCROW_STATUSES.join(', ')}`).optional(),
  search: z.string().max(254, 'search must be at most 254 characters').optional(),
  limit: z.coerce.number().int('limit must be a whole number').min(1, 'limit must be from 1 to 100').max(100, 'limit must be from 1 to 100').default(25),
  offset: z.coerce.number().int('offset must be a whole number').min(0, 'offset must be 0 or more').max(1_000_000, 'offset is too large').default(0),
});
const escrowAnswer = jsonAnswer('The escrow after the action', escrowSchema);
const notesForm = z.object({ notes: z.string().max(5000).default(''), txid: optionalTxid, totp_code: totp, expected_address: expectedAddress });
const verifyForm = notesForm.extend({ verified: z.enum(['true', 'false'], 'verified must be true or false') });
const reasonForm = z.object({ reason: z.string().max(1000).default('') });

/** /api/admin/escrows: every escrow for the console, one escrow's history, and the admins' actions on it. */
export function adminEscrowRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();
  const { load, answer, meta, act } = escrowActing(deps);

  app.openapi(
    adminRoute('get', '/', 'Every escrow, newest first: filter by status, search by id or e-mail, paged (total: how many match)', { request: { query: listQuery } }, {
      200: jsonAnswer('One page of escrows', adminEscrowPageSchema),
    }),
    async (c) => jsonText(c, await listEscrowsForAdmin(deps.database.db, c.req.valid('query')), 200),
  );

  app.openapi(
    adminRoute('get', '/{id}/history', 'The escrow event by event, with its status after each', { request: { params: z.object({ id: z.uuid('id must be an escrow id') }) } }, { 200: rowsAnswer('The escrow event by event', adminEscrowHistorySchema) }),
    async (c) => {
      const history = await escrowHistoryForAdmin(db, c.req.valid('param').id);
      if (history.length === 0) throw notFound('Escrow not found');
      return c.json(history, 200);
    },
  );

  app.openapi(adminRoute('post', '/{id}/verify-payment', 'Verify (funded) or reject the marked payment', { request: { params: idParam, body: formBody(verifyForm) } }, { 200: escrowAnswer }), async (c) => {
    const user = currentUser(c);
    const { id } = c.req.valid('param');
    const form = c.req.valid('form');
    await load(id, user);
    await reviewPayment(deps, id, { verified: form.verified === 'true', notes: form.notes, txid: form.txid }, meta(c));
    return jsonText(c, await answer(id, user), 200);
  });
  app.openapi(adminRoute('post', '/{id}/release', 'Release a funded escrow to the seller', { request: { params: idParam, body: formBody(notesForm) } }, { 200: escrowAnswer }), async (c) => {
    const user = currentUser(c);
    const form = c.req.valid('form');
    const { id } = c.req.valid('param');
    await load(id, user);
    await payOut(deps, id, { to: 'release', notes: form.notes, txid: form.txid, expected_address: form.expected_address }, meta(c));
    return jsonText(c, await answer(id, user), 200);
  });
  app.openapi(adminRoute('post', '/{id}/refund', 'Refund a funded escrow to the buyer', { request: { params: idParam, body: formBody(notesForm) } }, { 200: escrowAnswer }), async (c) => {
    const user = currentUser(c);
    const form = c.req.valid('form');
    const { id } = c.req.valid('param');
    await load(id, user);
    await payOut(deps, id, { to: 'refund', notes: form.notes, txid: form.txid, expected_address: form.expected_address }, meta(c));
    return jsonText(c, await answer(id, user), 200);
  });
  app.openapi(adminRoute('post', '/{id}/freeze', 'Freeze an escrow that is not final', { request: { params: idParam, body: formBody(reasonForm) } }, { 200: escrowAnswer }), async (c) =>
    jsonText(c, await act(c, c.req.valid('param').id, () => ({ type: 'freeze', by: 'admin', reason: c.req.valid('form').reason })), 200),
  );
  app.openapi(adminRoute('post', '/{id}/unfreeze', 'Unfreeze: back to where it was', { request: { params: idParam, body: formBody(reasonForm) } }, { 200: escrowAnswer }), async (c) =>
    jsonText(c, await act(c, c.req.valid('param').id, () => ({ type: 'unfreeze', by: 'admin', reason: c.req.valid('form').reason })), 200),
  );

  app.openapi(
    adminRoute('post', '/{id}/assign-address', 'Give a waiting escrow a chosen pool address', { request: { params: idParam, body: formBody(z.object({ address_id: z.uuid('address_id must be an address id') })) } }, {
      200: jsonAnswer('The escrow with its address', escrowSchema),
    }),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      await findVisibleEscrow(db, id, user);
      const address = await poolAddress(db, c.req.valid('form').address_id);
      if (!address) throw notFound('Address not found');
      if (address.status !== 'available') throw new DomainError('conflict', `This address is ${address.status}; choose an available one`);
      await assignPaymentAddress(deps.store, { escrowId: id, addressId: address.id, address: address.address_string, by: 'admin' }, meta(c));
      return jsonText(c, (await findVisibleEscrow(db, id, user)).answer, 200);
    },
  );

  return app;
}
