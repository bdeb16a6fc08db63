import { OpenAPIHono, z } from '@hono/zod-openapi';
import { overviewSchema, reportRangeQuery } from '../../../../contract/reports.ts';
import type { BooksRange } from '../../../../projections/books/books.ts';
import type { AppDeps } from '../../../app-deps.ts';
import { booksFromLog, escrowsByStatus, poolHealth } from '../../../reports/books-from-log.ts';
import { escrowsCsv, feesCsv, payoutsCsv } from '../../../reports/reports.ts';
import { jsonAnswer } from '../../bodies.ts';
import type { AppEnv } from '../../env.ts';
import { adminRoute } from '../../route.ts';

const csvAnswer = (description: string) => ({ description, content: { 'text/csv': { schema: z.string() } } });

/** /api/admin/reports: the books as CSV files (RFC 4180, a header row) and the Overview's figures. */
export function adminReportRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();
  const rangeOf = (query: { from?: string | undefined; to?: string | undefined }): BooksRange => ({
    from: query.from,
    to: query.to,
  });
  const file = (name: string, range: BooksRange, text: string) =>
    new Response(text, {
      status: 200,
      headers: {
        'content-type': 'text/csv; charset=utf-8; header=present',
        'content-disposition': `attachment; filename="${name}-${range.from ?? 'start'}-to-${range.to ?? 'now'}.csv"`,
        'cache-control': 'no-store',
      },
    });

  const reports = [
    ['escrows', 'Every escrow opened in the range: amounts, status, times, payout figures', escrowsCsv],
    [
      'payouts',
      "Every release, refund and split share: time, escrow, destination address, satoshis, USD at the escrow's rate, txid",
      payoutsCsv,
    ],
    ['fees', 'Fees taken per month', feesCsv],
  ] as const;
  for (const [name, summary, build] of reports) {
    app.openapi(
      adminRoute(
        'get',
        `/${name}.csv`,
        `${summary} (CSV)`,
        { request: { query: reportRangeQuery } },
        { 200: csvAnswer(`${name}.csv`) },
      ),
      async (c) => {
        const range = rangeOf(c.req.valid('query'));
        return file(name, range, await build(db, range)) as never;
      },
    );
  }

  app.openapi(
    adminRoute(
      'get',
      '/overview',
      'Volume, fees, escrows by status, median times, dispute rate and pool health for a range (the figures verify-export prints)',
      { request: { query: reportRangeQuery } },
      {
        200: jsonAnswer('The figures', overviewSchema),
      },
    ),
    async (c) => {
      const range = rangeOf(c.req.valid('query'));
      const { payouts: _payouts, ...books } = await booksFromLog(db, range);
      return c.json({ ...books, escrows_by_status: await escrowsByStatus(db, range), pool: await poolHealth(db) }, 200);
    },
  );

  return app;
}
