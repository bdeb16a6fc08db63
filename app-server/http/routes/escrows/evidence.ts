import { OpenAPIHono, z } from '@hono/zod-openapi';
import { evidenceIdParam } from '../../../../contract/escrow-requests.ts';
import { notFound } from '../../../../domain/shared/errors.ts';
import type { AppDeps } from '../../../app-deps.ts';
import { findVisibleEscrow } from '../../../escrows/parties.ts';
import { evidenceContent, evidenceFacts } from '../../../escrows/queries.ts';
import { messageFileFacts } from '../../../messages/queries.ts';
import type { AppEnv } from '../../env.ts';
import { currentUser, requireUser } from '../../middleware/authenticate.ts';
import { route } from '../../route.ts';

/** /api/evidence: payment evidence files and message attachments, for admins and the escrow's parties. */
export function evidenceRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    route(
      'get',
      '/{id}',
      "A payment evidence file or a message's attachment, for admins and the escrow's parties, always as a download",
      {
        middleware: [requireUser()] as const,
        request: { params: evidenceIdParam },
      },
      {
        200: {
          description: 'The file as uploaded',
          content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
        },
      },
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const meta = (await evidenceFacts(db, id)) ?? (await messageFileFacts(db, id));
      if (!meta) throw notFound('Evidence not found');
      // Not a party: the same 404 as for no file, so ids cannot be probed.
      await findVisibleEscrow(db, meta.escrow_id, currentUser(c)).catch(() => {
        throw notFound('Evidence not found');
      });
      const content = await evidenceContent(db, meta.evidence_id);
      if (!content) throw notFound('Evidence not found');
      c.header('Content-Type', meta.content_type);
      c.header('Content-Disposition', `attachment; filename="${meta.filename}"`);
      c.header('X-Content-Type-Options', 'nosniff');
      c.header('Cache-Control', 'private, no-store');
      c.header('X-Evidence-SHA256', meta.sha256);
      return c.body(content as Uint8Array<ArrayBuffer>, 200) as never;
    },
  );

  return app;
}
