import { OpenAPIHono, z } from '@hono/zod-openapi';
import {
  escrowDetailSchema,
  escrowHistoryEntrySchema,
  escrowListSchema,
  escrowSchema,
} from '../../../../contract/escrows.ts';
import { checkBitcoinAddress } from '../../../../domain/bitcoin-address.ts';
import {
  addressMessageQuerySchema,
  addressMessageSchema,
  createEscrowSchema,
  escrowIdParam as idParam,
  markPaidSchema,
  declineProposalSchema,
  declineSchema,
  openDisputeSchema,
  proposalIdParam,
  proposeSchema,
  payoutAddressSchema,
  shipSchema,
} from '../../../../contract/escrow-requests.ts';
import type { EscrowActor, EscrowCommand } from '../../../../domain/escrow/decide.ts';
import { forbidden, invalidInput } from '../../../../domain/shared/errors.ts';
import type { AppDeps } from '../../../app-deps.ts';
import { EscrowListAnswers } from '../../../caching/escrow-lists.ts';
import { createEscrow } from '../../../escrows/create.ts';
import { evidenceByEscrow, withEvidence } from '../../../escrows/evidence-list.ts';
import {
  declineTerms,
  endUnpaid,
  freeingAddressIfEnded,
  markPaid,
  setPayoutAddress,
} from '../../../escrows/commands.ts';
import { addressMessageFor } from '../../../escrows/address-proof.ts';
import { listVisibleEscrows } from '../../../escrows/parties.ts';
import { escrowHistoryForParties } from '../../../escrows/queries.ts';
import { requireProposal } from '../../../escrows/proposals.ts';
import { requestPaymentAddress } from '../../../escrows/payment-address.ts';
import { jsonAnswer, jsonBody, jsonText } from '../../bodies.ts';
import type { AppEnv } from '../../env.ts';
import { currentUser, requireUser } from '../../middleware/authenticate.ts';
import { route } from '../../route.ts';
import { escrowActing } from './acting.ts';

const escrowAnswer = jsonAnswer('The escrow', escrowSchema);
const afterAction = jsonAnswer('The escrow after the action', escrowSchema);

/**
 * /api/escrows: escrows as their parties see them, and what the parties do on one. A user who is not a party gets
 * 404, as if it did not exist.
 */
export function escrowRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();
  const { load: visible, answer, answerAfter, meta, act } = escrowActing(deps);
  const lists = new EscrowListAnswers();
  const party = { middleware: [requireUser()] };

  app.openapi(
    route(
      'get',
      '/',
      'Escrows you created or are a party to by a verified e-mail (admins: all)',
      { middleware: [requireUser()] as const },
      {
        200: jsonAnswer('Escrows, newest first', escrowListSchema),
      },
    ),
    async (c) => {
      const user = currentUser(c);
      return jsonText(
        c,
        await lists.answer(user, c.get('escrowsPosition'), () => listVisibleEscrows(db, user, 500)),
        200,
      );
    },
  );

  app.openapi(
    route(
      'post',
      '/',
      'Open an escrow; a buyer gets a payment address at once when one is free',
      { middleware: [requireUser()] as const, request: { body: jsonBody(createEscrowSchema) } },
      {
        201: escrowAnswer,
      },
    ),
    async (c) => {
      const user = currentUser(c);
      const created = await createEscrow(deps, user, c.req.valid('json'), { requestId: c.get('requestId') });
      const shown = created.after
        ? answerAfter(created.after, created.side)
        : (await visible(created.escrowId, user)).answer;
      return jsonText(c, shown, 201);
    },
  );

  app.openapi(
    route(
      'get',
      '/{id}',
      'One escrow',
      { middleware: [requireUser()] as const, request: { params: idParam } },
      { 200: jsonAnswer('The escrow with the evidence of its payment marks', escrowDetailSchema) },
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const { answer: withoutEvidence, escrow } = await visible(id, currentUser(c));
      return jsonText(
        c,
        withEvidence(withoutEvidence, (await evidenceByEscrow(db, [escrow.id])).get(escrow.id) ?? []),
        200,
      );
    },
  );

  app.openapi(
    route(
      'get',
      '/{id}/history',
      "What happened when, as the escrow's parties may read it (no admin notes, no account ids)",
      { middleware: [requireUser()] as const, request: { params: idParam } },
      {
        200: jsonAnswer(
          'Events oldest first: time, what happened in words, the side that acted',
          z.array(escrowHistoryEntrySchema),
        ),
      },
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      await visible(id, currentUser(c));
      return c.json(await escrowHistoryForParties(db, id), 200);
    },
  );

  app.openapi(
    route(
      'post',
      '/{id}/request-payment',
      'Make Payment: the buyer asks for a payment address',
      { middleware: [requireUser()] as const, request: { params: idParam } },
      {
        200: escrowAnswer,
      },
    ),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      const { side } = await visible(id, user);
      await requestPaymentAddress(deps, id, side, { actor: user.id, requestId: c.get('requestId') });
      return jsonText(c, (await visible(id, user)).answer, 200);
    },
  );

  app.openapi(
    route(
      'post',
      '/{id}/cancel',
      'The creator cancels before any payment mark; the address goes back to the pool',
      { ...party, request: { params: idParam } },
      { 200: afterAction },
    ),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      const { side } = await visible(id, user);
      await endUnpaid(deps.store, { escrowId: id, how: 'cancel', by: side }, meta(c));
      return jsonText(c, await answer(id, user), 200);
    },
  );

  app.openapi(
    route(
      'post',
      '/{id}/agree',
      'The counterparty agrees to the terms (the creator agreed by creating)',
      {
        ...party,
        request: { params: idParam },
      },
      { 200: afterAction },
    ),
    async (c) => jsonText(c, await act(c, c.req.valid('param').id, (by) => ({ type: 'agree', by })), 200),
  );

  app.openapi(
    route(
      'post',
      '/{id}/decline',
      'The counterparty declines the terms: unpaid, the escrow is cancelled; paid, refunded',
      {
        ...party,
        request: { params: idParam, body: jsonBody(declineSchema) },
      },
      { 200: afterAction },
    ),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      const { side } = await visible(id, user);
      await declineTerms(deps.store, { escrowId: id, by: side, reason: c.req.valid('json').reason }, meta(c));
      return jsonText(c, await answer(id, user), 200);
    },
  );

  app.openapi(
    route(
      'post',
      '/{id}/ship',
      'The seller records the shipment: method, carrier (for shipping), tracking, note',
      {
        ...party,
        request: { params: idParam, body: jsonBody(shipSchema) },
      },
      { 200: afterAction },
    ),
    async (c) => {
      const body = c.req.valid('json');
      return jsonText(c, await act(c, c.req.valid('param').id, (by) => ({ type: 'ship', by, ...body })), 200);
    },
  );

  app.openapi(
    route(
      'post',
      '/{id}/receive',
      'The buyer marks the goods received, starting the inspection period',
      {
        ...party,
        request: { params: idParam },
      },
      { 200: afterAction },
    ),
    async (c) => jsonText(c, await act(c, c.req.valid('param').id, (by) => ({ type: 'receive', by })), 200),
  );

  app.openapi(
    route(
      'post',
      '/{id}/confirm-receipt',
      'The buyer confirms delivery',
      { ...party, request: { params: idParam } },
      { 200: afterAction },
    ),
    async (c) => jsonText(c, await act(c, c.req.valid('param').id, (by) => ({ type: 'confirmReceipt', by })), 200),
  );

  app.openapi(
    route(
      'post',
      '/{id}/payout-address',
      "The seller's payout or the buyer's refund address; replacing one (in any status) needs the 2FA code (when on) and holds the new address",
      {
        ...party,
        request: { params: idParam, body: jsonBody(payoutAddressSchema) },
      },
      { 200: afterAction },
    ),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const checked = checkBitcoinAddress(body.address, deps.config.BITCOIN_NETWORK);
      if (!checked.ok) throw invalidInput(`address ${checked.reason}`);
      const { side } = await visible(id, user);
      await setPayoutAddress(
        deps,
        user,
        { escrowId: id, by: side, address: checked.address, totpCode: body.totp_code, signature: body.signature },
        meta(c),
      );
      return jsonText(c, await answer(id, user), 200);
    },
  );

  app.openapi(
    route(
      'get',
      '/{id}/address-message',
      'The exact message to sign (BIP-322 simple) with a payout or refund address to prove it is yours',
      {
        ...party,
        request: { params: idParam, query: addressMessageQuerySchema },
      },
      { 200: jsonAnswer('The message for your side of this escrow and this address', addressMessageSchema) },
    ),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      const { side } = await visible(id, user);
      if (side !== 'buyer' && side !== 'seller') throw forbidden('Only the buyer and the seller give addresses');
      // Whose escrow first: a stranger learns nothing from how the address is judged.
      const { address } = c.req.valid('query');
      if (!address) throw invalidInput('address is required');
      const checked = checkBitcoinAddress(address, deps.config.BITCOIN_NETWORK);
      if (!checked.ok) throw invalidInput(`address ${checked.reason}`);
      return c.json(
        {
          message: addressMessageFor(deps, { escrowId: id, side, address: checked.address }),
          side,
          address: checked.address,
        },
        200,
      );
    },
  );

  app.openapi(
    route(
      'post',
      '/{id}/mark-paid',
      'The buyer marks the payment as sent, with notes and optionally one evidence file (PNG, JPEG, WebP, GIF, PDF or text; 10 MB)',
      {
        ...party,
        request: {
          params: idParam,
          body: {
            required: true,
            content: {
              'multipart/form-data': { schema: markPaidSchema },
              'application/x-www-form-urlencoded': { schema: markPaidSchema },
            },
          },
        },
      },
      { 200: afterAction },
    ),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      const form = c.req.valid('form');
      const { side } = await visible(id, user);
      const file =
        form.file instanceof File && (form.file.size > 0 || form.file.name)
          ? { name: form.file.name, type: form.file.type, bytes: new Uint8Array(await form.file.arrayBuffer()) }
          : null;
      await markPaid(deps.store, { escrowId: id, by: side, notes: form.notes, file }, meta(c));
      return jsonText(c, await answer(id, user), 200);
    },
  );

  app.openapi(
    route(
      'post',
      '/{id}/open-dispute',
      'A party opens a dispute',
      { ...party, request: { params: idParam, body: jsonBody(openDisputeSchema) } },
      { 200: afterAction },
    ),
    async (c) => {
      const { reason } = c.req.valid('json');
      return jsonText(c, await act(c, c.req.valid('param').id, (by) => ({ type: 'openDispute', by, reason })), 200);
    },
  );

  app.openapi(
    route(
      'post',
      '/{id}/proposals',
      'A party proposes a settlement: cancel, refund, split (seller_percent), or an extension (days)',
      {
        ...party,
        request: { params: idParam, body: jsonBody(proposeSchema) },
      },
      { 200: afterAction },
    ),
    async (c) => {
      const body = c.req.valid('json');
      return jsonText(c, await act(c, c.req.valid('param').id, (by) => ({ type: 'propose', by, ...body })), 200);
    },
  );

  /** An answer to one proposal of the escrow, as the caller's side; 404 for a proposal the escrow does not have. */
  const onProposal = async (
    c: Parameters<typeof act>[0],
    id: string,
    pid: string,
    command: (by: EscrowActor) => EscrowCommand,
  ) => {
    await visible(id, currentUser(c));
    await requireProposal(db, id, pid);
    return act(c, id, command);
  };
  const answerRoute = (verb: 'accept' | 'withdraw', summary: string) =>
    route(
      'post',
      `/{id}/proposals/{pid}/${verb}`,
      summary,
      { ...party, request: { params: proposalIdParam } },
      { 200: afterAction },
    );

  app.openapi(
    answerRoute(
      'accept',
      'The other side accepts the open proposal: an extension applies at once, a cancel cancels (the address goes back to the pool)',
    ),
    async (c) => {
      const { id, pid } = c.req.valid('param');
      const user = currentUser(c);
      const { side } = await visible(id, user);
      await requireProposal(db, id, pid);
      await freeingAddressIfEnded(deps.store, id, { type: 'acceptProposal', by: side, proposal_id: pid }, meta(c));
      return jsonText(c, await answer(id, user), 200);
    },
  );

  app.openapi(
    route(
      'post',
      '/{id}/proposals/{pid}/decline',
      'The other side declines the open proposal, with an optional reason',
      {
        ...party,
        request: { params: proposalIdParam, body: jsonBody(declineProposalSchema) },
      },
      { 200: afterAction },
    ),
    async (c) => {
      const { id, pid } = c.req.valid('param');
      const { reason } = c.req.valid('json');
      return jsonText(
        c,
        await onProposal(c, id, pid, (by) => ({ type: 'declineProposal', by, proposal_id: pid, reason })),
        200,
      );
    },
  );

  app.openapi(answerRoute('withdraw', 'The side that made the open proposal withdraws it'), async (c) => {
    const { id, pid } = c.req.valid('param');
    return jsonText(c, await onProposal(c, id, pid, (by) => ({ type: 'withdrawProposal', by, proposal_id: pid })), 200);
  });

  return app;
}
