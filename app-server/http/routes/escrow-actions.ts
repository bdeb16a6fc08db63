import { randomUUID } from 'node:crypto';
import { adminDisputesSchema, escrowSchema } from '../../../contract/escrows.ts';
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { escrowAggregate } from '../../../domain/aggregates.ts';
import { checkBitcoinAddress } from '../../../domain/bitcoin-address.ts';
import type { EscrowActor, EscrowCommand } from '../../../domain/escrow/decide.ts';
import { conflict, invalidInput, notFound } from '../../../domain/shared/errors.ts';
import { wholeNumber } from '../../../domain/shared/schemas.ts';
import { passSecondFactor } from '../../accounts/second-factor.ts';
import { endUnpaid, verifyPayment } from '../../commands/escrow-payment.ts';
import { executeCommand, loadAggregate } from '../../commands/execute.ts';
import { escrowEffects } from '../../escrows/after-events.ts';
import { evidenceByEscrow } from '../../escrows/evidence-list.ts';
import { markPaid } from '../../escrows/mark-paid.ts';
import { assertMoneyMayMove } from '../../escrows/money-guard.ts';
import { findVisibleEscrow } from '../../escrows/parties.ts';
import { formBody, jsonAnswer, jsonBody, jsonText } from '../bodies.ts';
import type { AppDeps, SignedInUser } from '../../app-deps.ts';
import type { AppEnv } from '../env.ts';
import { currentUser, requireUser } from '../middleware/authenticate.ts';
import { adminRoute, route } from '../route.ts';

const idParam = z.object({ id: z.uuid('id must be an escrow id') });
const escrowAnswer = jsonAnswer('The escrow after the action', escrowSchema);
const optionalTxid = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v.toLowerCase() : null))
  .pipe(z.string().regex(/^[0-9a-f]{64}$/, 'txid must be 64 hexadecimal characters').nullable());
const totp = z.string().trim().max(32).optional();
/** The address the admin was shown; if the escrow's address differs now, the action is refused (409). */
const expectedAddress = z.string().trim().max(200).optional();
const notesForm = z.object({ notes: z.string().max(5000).default(''), txid: optionalTxid, totp_code: totp, expected_address: expectedAddress });
const verifyForm = notesForm.extend({ verified: z.enum(['true', 'false'], 'verified must be true or false') });
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
const markPaidForm = z.object({
  notes: z.string().max(5000, 'notes must be at most 5000 characters').default(''),
  file: z
    .union([z.instanceof(File), z.literal('')], 'file must be a file upload')
    .optional()
    .openapi({ type: 'string', format: 'binary' }),
});
const reasonForm = z.object({ reason: z.string().max(1000).default('') });

/** The parties' and the admins' actions on one escrow; every rule is the escrow decider's. */
export function escrowActionRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();

  const load = (id: string, user: SignedInUser) => findVisibleEscrow(db, id, user);
  const answer = async (id: string, user: SignedInUser) => (await load(id, user)).answer;
  type Ctx = Parameters<typeof currentUser>[0] & { get: (k: 'requestId') => string };
  const effects = escrowEffects(deps);
  const meta = (c: Ctx) => ({ actor: currentUser(c).id, requestId: c.get('requestId') });
  const act = async (c: Ctx, id: string, command: (side: EscrowActor) => EscrowCommand) => {
    const user = currentUser(c);
    const { side } = await load(id, user);
    await executeCommand({ db, store: deps.store }, escrowAggregate, id, command(side), meta(c), effects);
    return answer(id, user);
  };

  const party = { middleware: [requireUser()] };
  app.openapi(route('post', '/escrows/{id}/cancel', 'The creator cancels before any payment mark; the address goes back to the pool', { ...party, request: { params: idParam } }, { 200: escrowAnswer }), async (c) => {
    const user = currentUser(c);
    const { id } = c.req.valid('param');
    const { side } = await load(id, user);
    await endUnpaid({ db, store: deps.store }, { escrowId: id, how: 'cancel', by: side }, meta(c), effects);
    return jsonText(c, await answer(id, user), 200);
  });
  app.openapi(route('post', '/escrows/{id}/confirm-receipt', 'The buyer confirms delivery', { ...party, request: { params: idParam } }, { 200: escrowAnswer }), async (c) =>
    jsonText(c, await act(c, c.req.valid('param').id, (by) => ({ type: 'confirmReceipt', by })), 200),
  );
  app.openapi(
    route('post', '/escrows/{id}/payout-address', "The seller's payout or the buyer's refund address; replacing one once funded needs the 2FA code (when on) and holds the new address", {
      ...party,
      request: { params: idParam, body: jsonBody(z.object({ address: z.string('address is required').max(200), totp_code: totp })) },
    }, { 200: escrowAnswer }),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const checked = checkBitcoinAddress(body.address, deps.config.BITCOIN_NETWORK);
      if (!checked.ok) throw invalidInput(`address ${checked.reason}`);
      const { side } = await load(id, user);
      if (user.totp_enabled && (side === 'buyer' || side === 'seller')) {
        // Replacing an address once money is held is what a stolen session would do: it takes the second factor.
        const { state } = await loadAggregate(db, escrowAggregate, id);
        const current = side === 'seller' ? state.context.payout_address : state.context.refund_address;
        const funded = state.status === 'funded' || (state.status === 'disputed' && state.context.status_before_dispute === 'funded');
        if (funded && current !== null && current !== checked.address) {
          await passSecondFactor(deps, user, body.totp_code, { missing: '2FA code required to replace an address on a funded escrow', meta: meta(c) });
        }
      }
      return jsonText(c, await act(c, id, (by) => ({ type: 'setPayoutAddress', by, address: checked.address, hold_hours: deps.config.PAYOUT_ADDRESS_HOLD_HOURS })), 200);
    },
  );
  app.openapi(
    route('post', '/escrows/{id}/mark-paid', 'The buyer marks the payment as sent, with notes and optionally one evidence file (PNG, JPEG, WebP, GIF, PDF or text; 10 MB)', {
      ...party,
      request: { params: idParam, body: { required: true, content: { 'multipart/form-data': { schema: markPaidForm }, 'application/x-www-form-urlencoded': { schema: markPaidForm } } } },
    }, { 200: escrowAnswer }),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      const form = c.req.valid('form');
      const { side } = await load(id, user);
      const file = form.file instanceof File && (form.file.size > 0 || form.file.name) ? { name: form.file.name, type: form.file.type, bytes: new Uint8Array(await form.file.arrayBuffer()) } : null;
      await markPaid(deps, { escrowId: id, by: side, notes: form.notes, file }, meta(c));
      return jsonText(c, await answer(id, user), 200);
    },
  );
  app.openapi(
    route('post', '/escrows/{id}/open-dispute', 'A party opens a dispute', { ...party, request: { params: idParam, body: jsonBody(z.object({ reason: z.string('reason is required').max(5000) })) } }, { 200: escrowAnswer }),
    async (c) => {
      const { reason } = c.req.valid('json');
      return jsonText(c, await act(c, c.req.valid('param').id, (by) => ({ type: 'openDispute', by, dispute_id: randomUUID(), reason })), 200);
    },
  );

  app.openapi(adminRoute('post', '/admin/escrows/{id}/verify-payment', 'Verify (funded) or reject the marked payment', { request: { params: idParam, body: formBody(verifyForm) } }, { 200: escrowAnswer }), async (c) => {
    const user = currentUser(c);
    const { id } = c.req.valid('param');
    const form = c.req.valid('form');
    await assertMoneyMayMove(deps, id);
    if (form.verified === 'false') return jsonText(c, await act(c, id, () => ({ type: 'rejectPayment', by: 'admin', notes: form.notes })), 200);
    await load(id, user);
    await verifyPayment({ db, store: deps.store }, { escrowId: id, notes: form.notes, txid: form.txid }, meta(c), effects);
    return jsonText(c, await answer(id, user), 200);
  });
  app.openapi(adminRoute('post', '/admin/escrows/{id}/release', 'Release a funded escrow to the seller', { request: { params: idParam, body: formBody(notesForm) } }, { 200: escrowAnswer }), async (c) => {
    const form = c.req.valid('form');
    const { id } = c.req.valid('param');
    await assertMoneyMayMove(deps, id);
    return jsonText(c, await act(c, id, () => ({ type: 'release', by: 'admin', notes: form.notes, txid: form.txid, expected_address: form.expected_address })), 200);
  });
  app.openapi(adminRoute('post', '/admin/escrows/{id}/refund', 'Refund a funded escrow to the buyer', { request: { params: idParam, body: formBody(notesForm) } }, { 200: escrowAnswer }), async (c) => {
    const form = c.req.valid('form');
    const { id } = c.req.valid('param');
    await assertMoneyMayMove(deps, id);
    return jsonText(c, await act(c, id, () => ({ type: 'refund', by: 'admin', notes: form.notes, txid: form.txid, expected_address: form.expected_address })), 200);
  });
  app.openapi(adminRoute('post', '/admin/escrows/{id}/freeze', 'Freeze an escrow that is not final', { request: { params: idParam, body: formBody(reasonForm) } }, { 200: escrowAnswer }), async (c) =>
    jsonText(c, await act(c, c.req.valid('param').id, () => ({ type: 'freeze', by: 'admin', reason: c.req.valid('form').reason })), 200),
  );
  app.openapi(adminRoute('post', '/admin/escrows/{id}/unfreeze', 'Unfreeze: back to where it was', { request: { params: idParam, body: formBody(reasonForm) } }, { 200: escrowAnswer }), async (c) =>
    jsonText(c, await act(c, c.req.valid('param').id, () => ({ type: 'unfreeze', by: 'admin', reason: c.req.valid('form').reason })), 200),
  );
  app.openapi(adminRoute('post', '/admin/disputes/{id}/resolve', 'Resolve an open dispute, optionally moving the money', { request: { params: z.object({ id: z.uuid('id must be a dispute id') }), body: formBody(resolveForm) } }, { 200: escrowAnswer }), async (c) => {
    const form = c.req.valid('form');
    const disputeId = c.req.valid('param').id;
    const dispute = await db.selectFrom('disputes').select(['escrow_id', 'status']).where('id', '=', disputeId).executeTakeFirst();
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
  app.openapi(adminRoute('get', '/admin/disputes', 'Disputes, open first, newest first', {}, { 200: jsonAnswer('Disputes', adminDisputesSchema) }), async (c) => {
    const rows = await db.selectFrom('disputes').selectAll().orderBy('status').orderBy('opened_at', 'desc').execute();
    const evidence = await evidenceByEscrow(db, [...new Set(rows.map((r) => r.escrow_id))]);
    return c.json(rows.map((r) => ({ ...r, opened_at: r.opened_at.toISOString(), resolved_at: r.resolved_at?.toISOString() ?? null, evidence: evidence.get(r.escrow_id)! })), 200);
  });

  return app;
}
