import { OpenAPIHono, z } from '@hono/zod-openapi';
import { escrowDetailSchema, escrowListSchema, escrowSchema } from '../../../../contract/escrows.ts';
import { escrowAggregate } from '../../../../domain/aggregates.ts';
import { checkBitcoinAddress } from '../../../../domain/bitcoin-address.ts';
import { createEscrowSchema, escrowHistoryEntrySchema } from '../../../../domain/escrow/api-schemas.ts';
import { partyHistory } from '../../../../domain/escrow/history.ts';
import { forbidden, invalidInput } from '../../../../domain/shared/errors.ts';
import { passSecondFactor } from '../../../accounts/second-factor.ts';
import type { AppDeps } from '../../../app-deps.ts';
import { endUnpaid } from '../../../commands/escrow-payment.ts';
import { loadAggregate } from '../../../commands/execute.ts';
import { createEscrow } from '../../../escrows/create.ts';
import { evidenceByEscrow, withEvidence } from '../../../escrows/evidence-list.ts';
import { markPaid } from '../../../escrows/mark-paid.ts';
import { listVisibleEscrows } from '../../../escrows/parties.ts';
import { requestPaymentAddress } from '../../../escrows/payment-address.ts';
import { readStream } from '../../../event-store/read.ts';
import { AnswersAtPosition } from '../../answers-at-position.ts';
import { jsonAnswer, jsonBody, jsonText } from '../../bodies.ts';
import type { AppEnv } from '../../env.ts';
import { currentUser, requireUser } from '../../middleware/authenticate.ts';
import { route } from '../../route.ts';
import { escrowActing, escrowIdParam as idParam, totpField as totp } from './acting.ts';

const escrowAnswer = jsonAnswer('The escrow', escrowSchema);
const afterAction = jsonAnswer('The escrow after the action', escrowSchema);
const markPaidForm = z.object({
  notes: z.string().max(5000, 'notes must be at most 5000 characters').default(''),
  file: z
    .union([z.instanceof(File), z.literal('')], 'file must be a file upload')
    .optional()
    .openapi({ type: 'string', format: 'binary' }),
});

/**
 * /api/escrows: escrows as their parties see them, and what the parties do on one. A user who is not a party gets
 * 404, as if it did not exist.
 */
export function escrowRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();
  const { load: visible, answer, effects, meta, act } = escrowActing(deps);
  /** Each user's list (the dashboard: the most read answer), kept until an escrow event is appended. */
  const lists = new AnswersAtPosition();
  const party = { middleware: [requireUser()] };

  app.openapi(
    route('get', '/', 'Escrows you created or are a party to by a verified e-mail (admins: all)', { middleware: [requireUser()] as const }, {
      200: jsonAnswer('Escrows, newest first', escrowListSchema),
    }),
    async (c) => {
      const user = currentUser(c);
      // Everything the list depends on besides the escrows read model: who asks, as what, by which verified e-mail.
      const key = [user.id, user.role, user.email_verified ? user.email.toLowerCase() : ''].join('\u0000');
      const position = c.get('escrowsPosition');
      const list = () => listVisibleEscrows(db, user, 500);
      return jsonText(c, position === undefined ? await list() : await lists.answer(position, key, list), 200);
    },
  );

  app.openapi(
    route('post', '/', 'Open an escrow; a buyer gets a payment address at once when one is free', { middleware: [requireUser()] as const, request: { body: jsonBody(createEscrowSchema) } }, {
      201: escrowAnswer,
    }),
    async (c) => {
      const user = currentUser(c);
      const { escrowId } = await createEscrow(deps, user, c.req.valid('json'), { requestId: c.get('requestId') });
      return jsonText(c, (await visible(escrowId, user)).answer, 201);
    },
  );

  app.openapi(route('get', '/{id}', 'One escrow', { middleware: [requireUser()] as const, request: { params: idParam } }, { 200: jsonAnswer('The escrow with the evidence of its payment marks', escrowDetailSchema) }), async (c) => {
    const { id } = c.req.valid('param');
    const { answer: withoutEvidence, escrow } = await visible(id, currentUser(c));
    return jsonText(c, withEvidence(withoutEvidence, (await evidenceByEscrow(db, [escrow.id])).get(escrow.id) ?? []), 200);
  });

  app.openapi(
    route('get', '/{id}/history', "What happened when, as the escrow's parties may read it (no admin notes, no account ids)", { middleware: [requireUser()] as const, request: { params: idParam } }, {
      200: jsonAnswer('Events oldest first: time, what happened in words, the side that acted', z.array(escrowHistoryEntrySchema)),
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await visible(id, currentUser(c));
      const { events } = await readStream(db, `escrow:${id}`);
      return c.json(partyHistory(events as unknown as Parameters<typeof partyHistory>[0]), 200);
    },
  );

  app.openapi(
    route('post', '/{id}/request-payment', 'Make Payment: the buyer asks for a payment address', { middleware: [requireUser()] as const, request: { params: idParam } }, {
      200: escrowAnswer,
    }),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      const { side } = await visible(id, user);
      if (side !== 'buyer') throw forbidden('Only the buyer can request a payment address');
      await requestPaymentAddress(deps, id, { actor: user.id, requestId: c.get('requestId') });
      return jsonText(c, (await visible(id, user)).answer, 200);
    },
  );

  app.openapi(route('post', '/{id}/cancel', 'The creator cancels before any payment mark; the address goes back to the pool', { ...party, request: { params: idParam } }, { 200: afterAction }), async (c) => {
    const user = currentUser(c);
    const { id } = c.req.valid('param');
    const { side } = await visible(id, user);
    await endUnpaid({ db, store: deps.store }, { escrowId: id, how: 'cancel', by: side }, meta(c), effects);
    return jsonText(c, await answer(id, user), 200);
  });

  app.openapi(route('post', '/{id}/confirm-receipt', 'The buyer confirms delivery', { ...party, request: { params: idParam } }, { 200: afterAction }), async (c) =>
    jsonText(c, await act(c, c.req.valid('param').id, (by) => ({ type: 'confirmReceipt', by })), 200),
  );

  app.openapi(
    route('post', '/{id}/payout-address', "The seller's payout or the buyer's refund address; replacing one once funded needs the 2FA code (when on) and holds the new address", {
      ...party,
      request: { params: idParam, body: jsonBody(z.object({ address: z.string('address is required').max(200), totp_code: totp })) },
    }, { 200: afterAction }),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const checked = checkBitcoinAddress(body.address, deps.config.BITCOIN_NETWORK);
      if (!checked.ok) throw invalidInput(`address ${checked.reason}`);
      const { side } = await visible(id, user);
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
    route('post', '/{id}/mark-paid', 'The buyer marks the payment as sent, with notes and optionally one evidence file (PNG, JPEG, WebP, GIF, PDF or text; 10 MB)', {
      ...party,
      request: { params: idParam, body: { required: true, content: { 'multipart/form-data': { schema: markPaidForm }, 'application/x-www-form-urlencoded': { schema: markPaidForm } } } },
    }, { 200: afterAction }),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      const form = c.req.valid('form');
      const { side } = await visible(id, user);
      const file = form.file instanceof File && (form.file.size > 0 || form.file.name) ? { name: form.file.name, type: form.file.type, bytes: new Uint8Array(await form.file.arrayBuffer()) } : null;
      await markPaid(deps, { escrowId: id, by: side, notes: form.notes, file }, meta(c));
      return jsonText(c, await answer(id, user), 200);
    },
  );

  app.openapi(
    route('post', '/{id}/open-dispute', 'A party opens a dispute', { ...party, request: { params: idParam, body: jsonBody(z.object({ reason: z.string('reason is required').max(5000) })) } }, { 200: afterAction }),
    async (c) => {
      const { reason } = c.req.valid('json');
      return jsonText(c, await act(c, c.req.valid('param').id, (by) => ({ type: 'openDispute', by, reason })), 200);
    },
  );

  return app;
}
