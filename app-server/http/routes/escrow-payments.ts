import { OpenAPIHono, z } from '@hono/zod-openapi';
import { type Escrow, escrowSchema, pendingVerificationsSchema } from '../../../contract/escrows.ts';
import { DomainError, notFound } from '../../../domain/shared/errors.ts';
import { assignPaymentAddress } from '../../commands/escrow-payment.ts';
import { escrowEffects } from '../../escrows/after-events.ts';
import { evidenceByEscrow } from '../../escrows/evidence-list.ts';
import { findVisibleEscrow } from '../../escrows/parties.ts';
import { escrowViewJson, withSide } from '../../escrows/view.ts';
import { formBody, jsonAnswer, jsonText } from '../bodies.ts';
import type { AppDeps } from '../../app-deps.ts';
import type { AppEnv } from '../env.ts';
import { currentUser, requireUser } from '../middleware/authenticate.ts';
import { adminRoute, route } from '../route.ts';

const idParam = z.object({ id: z.uuid('id must be an escrow id') });
const list = (description: string) => jsonAnswer(description, pendingVerificationsSchema);

/** The payment desk: marked payments awaiting an admin, assigning a pool address by hand, evidence downloads. */
export function escrowPaymentRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(adminRoute('get', '/admin/pending-verifications', 'Marked payments awaiting verification, oldest first, with their evidence', {}, { 200: list('Escrows with the current payment mark and its evidence') }), async (c) => {
    const marks = await db
      .selectFrom('payment_mark_current as cur')
      .innerJoin('payment_marks as m', (j) => j.onRef('m.escrow_id', '=', 'cur.escrow_id').onRef('m.mark_position', '=', 'cur.mark_position'))
      .innerJoin('escrows as e', 'e.id', 'cur.escrow_id')
      .select(['e.id', escrowViewJson().as('view'), 'm.notes as mark_notes', 'm.marked_at as mark_at'])
      .orderBy('m.marked_at')
      .execute();
    const evidence = await evidenceByEscrow(db, marks.map((m) => m.id), { currentMarkOnly: true });
    return c.json(
      marks.map(({ id, view, mark_notes, mark_at }) => ({
        escrow: JSON.parse(withSide(view, 'admin')) as Escrow,
        notes: mark_notes,
        marked_at: mark_at.toISOString(),
        evidence: evidence.get(id)!,
      })),
      200,
    );
  });

  app.openapi(
    adminRoute('post', '/admin/escrows/{id}/assign-address', 'Give a waiting escrow a chosen pool address', { request: { params: idParam, body: formBody(z.object({ address_id: z.uuid('address_id must be an address id') })) } }, {
      200: jsonAnswer('The escrow with its address', escrowSchema),
    }),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      await findVisibleEscrow(db, id, user);
      const address = await db.selectFrom('addresses').select(['id', 'address_string', 'status']).where('id', '=', c.req.valid('form').address_id).executeTakeFirst();
      if (!address) throw notFound('Address not found');
      if (address.status !== 'available') throw new DomainError('conflict', `This address is ${address.status}; choose an available one`);
      await assignPaymentAddress({ db, store: deps.store }, { escrowId: id, addressId: address.id, address: address.address_string, by: 'admin' }, { actor: user.id, requestId: c.get('requestId') }, escrowEffects(deps));
      return jsonText(c, (await findVisibleEscrow(db, id, user)).answer, 200);
    },
  );

  app.openapi(
    route('get', '/evidence/{id}', "A payment evidence file, for admins and the escrow's parties, always as a download", {
      middleware: [requireUser()] as const,
      request: { params: z.object({ id: z.uuid('id must be an evidence id') }) },
    }, { 200: { description: 'The file as uploaded', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } } }),
    async (c) => {
      const meta = await db.selectFrom('payment_evidence').selectAll().where('evidence_id', '=', c.req.valid('param').id).executeTakeFirst();
      if (!meta) throw notFound('Evidence not found');
      // Not a party: the same 404 as for no file, so ids cannot be probed.
      await findVisibleEscrow(db, meta.escrow_id, currentUser(c)).catch(() => {
        throw notFound('Evidence not found');
      });
      const file = await db.selectFrom('evidence_files').select('content').where('evidence_id', '=', meta.evidence_id).executeTakeFirst();
      if (!file) throw notFound('Evidence not found');
      c.header('Content-Type', meta.content_type);
      c.header('Content-Disposition', `attachment; filename="${meta.filename}"`);
      c.header('X-Content-Type-Options', 'nosniff');
      c.header('Cache-Control', 'private, no-store');
      c.header('X-Evidence-SHA256', meta.sha256);
      return c.body(file.content as Uint8Array<ArrayBuffer>, 200) as never;
    },
  );

  return app;
}
