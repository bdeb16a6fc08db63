import { OpenAPIHono } from '@hono/zod-openapi';
import {
  auditEntriesSchema,
  chainStatusSchema,
  replayReportSchema,
  storedEventsSchema,
} from '../../../../contract/audit.ts';
import {
  auditLogQuerySchema,
  eventExportQuerySchema,
  eventLogQuerySchema,
  replayFormSchema,
  replayJsonSchema,
} from '../../../../contract/ledger-requests.ts';
import { auditLogPage } from '../../../audit/queries.ts';
import { chainStatus, ledgerEvents, ledgerExport } from '../../../audit/ledger.ts';
import { replayProjections } from '../../../replay.ts';
import { jsonAnswer, rowsAnswer } from '../../bodies.ts';
import { currentUser } from '../../middleware/authenticate.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { AppEnv } from '../../env.ts';
import { adminRoute } from '../../route.ts';
import { notAPower } from '../../middleware/admin-step-up.ts';

const replayBody = {
  required: false,
  content: {
    'application/json': { schema: replayJsonSchema },
    'application/x-www-form-urlencoded': { schema: replayFormSchema },
    'multipart/form-data': { schema: replayFormSchema },
  },
};

/**
 * A long export produces hundreds of megabytes of short-lived strings; V8 lets its heap grow well past what is
 * live before collecting. When the server runs with --expose-gc (`npm start` does), a full collection every
 * 32 MB streamed keeps its memory flat: here at most 162 MB while a million events stream, against 203 MB when
 * collecting every 64 MB and 223 MB when leaving it to V8. Without the flag, nothing happens.
 */
const COLLECT_EVERY_BYTES = 32 * 1024 * 1024;
const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.();

/** Under /api/admin, the ledger: the audit log, the raw event log, its export, replay and the chain head. */
export function adminLedgerRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    adminRoute(
      'get',
      '/audit-logs',
      'Every event, readable: newest first, filtered, paged by id',
      { request: { query: auditLogQuerySchema } },
      { 200: rowsAnswer('Audit log entries', auditEntriesSchema) },
    ),
    async (c) => {
      return c.json(await auditLogPage(db, c.req.valid('query')), 200);
    },
  );

  app.openapi(
    adminRoute(
      'get',
      '/events',
      'The raw event log by position',
      { request: { query: eventLogQuerySchema } },
      { 200: rowsAnswer('Events', storedEventsSchema) },
    ),
    async (c) => {
      const events = await ledgerEvents(db, c.req.valid('query'));
      return c.json(events as unknown as Record<string, unknown>[], 200);
    },
  );

  app.openapi(
    adminRoute(
      'post',
      '/replay',
      'Rebuild every read model from the log and compare with the live ones; swap=true then replaces them',
      { request: { body: replayBody } },
      { 200: rowsAnswer('The replay report', replayReportSchema) },
      notAPower('rebuilds the read models from the log: appends no event, moves no money'),
    ),
    async (c) => {
      const swap = c.req.valid('json').swap ?? c.req.valid('form').swap;
      const report = await replayProjections(deps.database, { swap: swap === true || swap === 'true' });
      if (report.swapped) {
        deps.logger.warn(
          { admin: currentUser(c).id, match_before: report.match, swapped: report.swapped },
          'Read models replaced by their rebuild from the log',
        );
      }
      return c.json(report as unknown as Record<string, unknown>, 200);
    },
  );

  app.openapi(
    adminRoute(
      'get',
      '/chain',
      "The chain head, whether the whole chain verifies now, and the server's own check (verified_up_to, broken)",
      {},
      { 200: jsonAnswer('The chain', chainStatusSchema) },
    ),
    async (c) => c.json(await chainStatus(db, deps.chainWatch), 200),
  );

  app.openapi(
    adminRoute(
      'get',
      '/events/export',
      'The log as NDJSON, streamed',
      { request: { query: eventExportQuerySchema } },
      { 200: { description: 'NDJSON' } },
    ),
    (c) => {
      const range = c.req.valid('query');
      c.header('Content-Type', 'application/x-ndjson');
      c.header('Content-Disposition', 'attachment; filename="events.ndjson"');
      // Pulled: the next piece is read from the database only when the client has taken the last one.
      const chunks = ledgerExport(db, range);
      let sinceCollection = 0;
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const next = await chunks.next();
            if (next.done) return controller.close();
            controller.enqueue(Buffer.from(next.value));
            sinceCollection += next.value.length;
            if (sinceCollection >= COLLECT_EVERY_BYTES) {
              sinceCollection = 0;
              collectGarbage();
            }
          },
          async cancel() {
            await chunks.return({ events: 0, last: 0 });
          },
        },
        { highWaterMark: 0 },
      );
      return c.body(body, 200);
    },
  );

  return app;
}
