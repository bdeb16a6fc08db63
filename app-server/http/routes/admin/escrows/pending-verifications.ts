import { OpenAPIHono } from '@hono/zod-openapi';
import { type Escrow, pendingVerificationsSchema } from '../../../../../contract/escrows.ts';
import type { AppDeps } from '../../../../app-deps.ts';
import { evidenceByEscrow } from '../../../../escrows/evidence-list.ts';
import { escrowViewJson, withSide } from '../../../../escrows/view.ts';
import { jsonAnswer } from '../../../bodies.ts';
import type { AppEnv } from '../../../env.ts';
import { adminRoute } from '../../../route.ts';

/** /api/admin/pending-verifications, the payment desk: marked payments awaiting an admin. */
export function pendingVerificationRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(adminRoute('get', '/', 'Marked payments awaiting verification, oldest first, with their evidence', {}, { 200: jsonAnswer('Escrows with the current payment mark and its evidence', pendingVerificationsSchema) }), async (c) => {
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

  return app;
}
