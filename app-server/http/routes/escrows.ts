import { OpenAPIHono, z } from '@hono/zod-openapi';
import { escrowDetailSchema, escrowListSchema, escrowSchema } from '../../../contract/escrows.ts';
import { createEscrowSchema, escrowHistoryEntrySchema } from '../../../domain/escrow/api-schemas.ts';
import { partyHistory } from '../../../domain/escrow/history.ts';
import { escrowAggregate } from '../../../domain/aggregates.ts';
import { DomainError, forbidden } from '../../../domain/shared/errors.ts';
import { loadAggregate } from '../../commands/execute.ts';
import { createEscrow } from '../../escrows/create.ts';
import { readStream } from '../../event-store/read.ts';
import { findVisibleEscrow, listVisibleEscrows } from '../../escrows/parties.ts';
import { takeFreeAddress } from '../../escrows/payment-address.ts';
import { AnswersAtPosition } from '../answers-at-position.ts';
import { evidenceByEscrow, withEvidence } from '../../escrows/evidence-list.ts';
import { jsonAnswer, jsonBody, jsonText } from '../bodies.ts';
import type { AppDeps, SignedInUser } from '../../app-deps.ts';
import type { AppEnv } from '../env.ts';
import { currentUser, requireUser } from '../middleware/authenticate.ts';
import { route } from '../route.ts';

const idParam = z.object({ id: z.uuid('id must be an escrow id') });
const escrowAnswer = jsonAnswer('The escrow', escrowSchema);

/** Escrows as their parties see them. A user who is not a party gets 404, as if it did not exist. */
export function escrowRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();

  const visible = (id: string, user: SignedInUser) => findVisibleEscrow(db, id, user);
  /** Each user's list (the dashboard: the most read answer), kept until an escrow event is appended. */
  const lists = new AnswersAtPosition();

  app.openapi(
    route('get', '/escrows', 'Escrows you created or are a party to by a verified e-mail (admins: all)', { middleware: [requireUser()] as const }, {
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
    route('post', '/escrows', 'Open an escrow; a buyer gets a payment address at once when one is free', { middleware: [requireUser()] as const, request: { body: jsonBody(createEscrowSchema) } }, {
      201: escrowAnswer,
    }),
    async (c) => {
      const user = currentUser(c);
      const { escrowId } = await createEscrow(deps, user, c.req.valid('json'), { requestId: c.get('requestId') });
      return jsonText(c, (await visible(escrowId, user)).answer, 201);
    },
  );

  app.openapi(route('get', '/escrows/{id}', 'One escrow', { middleware: [requireUser()] as const, request: { params: idParam } }, { 200: jsonAnswer('The escrow with the evidence of its payment marks', escrowDetailSchema) }), async (c) => {
    const { id } = c.req.valid('param');
    const { answer, escrow } = await visible(id, currentUser(c));
    return jsonText(c, withEvidence(answer, (await evidenceByEscrow(db, [escrow.id])).get(escrow.id) ?? []), 200);
  });

  app.openapi(
    route('get', '/escrows/{id}/history', "What happened when, as the escrow's parties may read it (no admin notes, no account ids)", { middleware: [requireUser()] as const, request: { params: idParam } }, {
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
    route('post', '/escrows/{id}/request-payment', 'Make Payment: the buyer asks for a payment address', { middleware: [requireUser()] as const, request: { params: idParam } }, {
      200: escrowAnswer,
    }),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      const { side } = await visible(id, user);
      if (side !== 'buyer') throw forbidden('Only the buyer can request a payment address');
      const { state } = await loadAggregate(db, escrowAggregate, id);
      if (state.status !== 'pending_payment') throw new DomainError('transition_not_allowed', `Cannot request a payment address for an escrow that is ${state.status}`);
      if (state.context.address_id) throw new DomainError('conflict', 'This escrow already has a payment address');
      const assigned = await takeFreeAddress(deps, id, 'buyer', { actor: user.id, requestId: c.get('requestId') });
      if (!assigned) throw new DomainError('conflict', 'No payment address is free right now; the admins have been told and will assign one shortly');
      return jsonText(c, (await visible(id, user)).answer, 200);
    },
  );

  return app;
}

