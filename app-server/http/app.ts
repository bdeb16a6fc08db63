import { OpenAPIHono } from '@hono/zod-openapi';
import { MAX_UPLOAD_BODY_BYTES } from '../escrows/evidence.ts';
import { invalidInput, notFound } from '../../domain/shared/errors.ts';
import type { AppDeps } from '../app-deps.ts';
import type { AppEnv } from './env.ts';
import { describeZodError, toHttpError, unstorableField } from './errors.ts';
import { authenticate } from './middleware/authenticate.ts';
import { bodyLimits } from './middleware/body-limits.ts';
import { clientAddress } from './client-address.ts';
import { compression } from './middleware/compression.ts';
import { adminStepUp } from './middleware/admin-step-up.ts';
import { idempotency } from './middleware/idempotency.ts';
import { requestContext } from './middleware/request-context.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { authRoutes } from './routes/accounts/auth.ts';
import { profileRoutes } from './routes/accounts/profile.ts';
import { apiTokenRoutes } from './routes/accounts/tokens.ts';
import { setupRoutes } from './routes/accounts/setup.ts';
import { adminAddressRoutes } from './routes/admin/addresses.ts';
import { adminBtcRateRoutes } from './routes/admin/btc-rate.ts';
import { adminDisputeRoutes } from './routes/admin/escrows/disputes.ts';
import { adminEscrowRoutes } from './routes/admin/escrows/escrows.ts';
import { pendingVerificationRoutes } from './routes/admin/escrows/pending-verifications.ts';
import { adminLedgerRoutes } from './routes/admin/ledger.ts';
import { adminReportRoutes } from './routes/admin/reports.ts';
import { adminReviewRoutes } from './routes/admin/reviews.ts';
import { adminUserRoutes } from './routes/admin/users.ts';
import { escrowRoutes } from './routes/escrows/escrows.ts';
import { evidenceRoutes } from './routes/escrows/evidence.ts';
import { messageRoutes } from './routes/escrows/messages.ts';
import { btcRateRoutes } from './routes/pricing/btc-rate.ts';
import { reviewRoutes } from './routes/reviews/reviews.ts';
import { apiDocsRoutes } from './routes/site/api-docs.ts';
import { healthRoutes } from './routes/site/health.ts';
import { siteRoutes } from './routes/site/site.ts';
import { webhookRoutes } from './routes/webhooks/webhooks.ts';
import { documentRoutes } from './documentation.ts';
import { staticApp } from './static-app.ts';
import { escrowProofRoutes, tileRoutes, transparencyRoutes } from './routes/transparency/transparency.ts';
import { createMetrics } from '../metrics/metrics.ts';
import { metricsRoutes } from '../metrics/route.ts';
import { VERSION } from '../version.ts';

/** Largest body of any call but an evidence upload. */
const MAX_BODY_BYTES = 1024 * 1024;
/** A refused or unread body up to this size is read away so that its connection serves the next request. */
const MAX_DISCARDED_BODY_BYTES = 16 * 1024 * 1024;
/** JSON bodies nested deeper are refused as they arrive (no request of this API nests more than a few levels). */
const MAX_JSON_DEPTH = 32;
/** The calls that take a file: the upload limit, a signed-in user and an upload slot; every other call the JSON limit. */
const UPLOAD_ROUTES = [/^\/api\/escrows\/[^/]+\/mark-paid$/, /^\/api\/escrows\/[^/]+\/messages$/];

/** Whether any route answers `method` at `path`, from the app's own route table (built once, at the first call). */
function routeTable(app: { routes: ReadonlyArray<{ method: string; path: string }> }) {
  let table: Array<{ method: string; pattern: RegExp }> | undefined;
  const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return (method: string, path: string) => {
    table ??= app.routes
      .filter((r) => !r.path.includes('*'))
      .map((r) => ({
        method: r.method,
        pattern: new RegExp(
          `^${r.path
            .split('/')
            .map((s) => (s.startsWith(':') ? '[^/]+' : escape(s)))
            .join('/')}/?$`,
        ),
      }));
    return table.some((r) => (r.method === method || r.method === 'ALL') && r.pattern.test(path));
  };
}

export interface AppOptions {
  /** The built web app to serve at `/`; omitted in API-only tests. */
  webDist?: string;
}

/** The whole HTTP surface: API under /api, the web app everywhere else. */
export function createApp(deps: AppDeps, options: AppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw invalidInput(describeZodError(result.error, result.target));
      const field = unstorableField(result.data);
      if (field !== undefined)
        throw invalidInput(`${field || result.target} must not contain NUL characters or unpaired surrogates`);
    },
  });

  const metrics = deps.metrics ?? createMetrics();
  app.use('*', requestContext({ logger: deps.logger, metrics }));
  app.use('*', compression());
  app.use('*', securityHeaders());
  // The session first: an upload is refused (401) before a byte of its body is read.
  app.use('/api/*', authenticate({ db: deps.database.db }));
  app.use(
    '*',
    bodyLimits({
      routeExists: routeTable(app),
      isUpload: (method, path) => method === 'POST' && UPLOAD_ROUTES.some((r) => r.test(path)),
      uploadLimit: MAX_UPLOAD_BODY_BYTES,
      limit: MAX_BODY_BYTES,
      readWithinMs: deps.config.BODY_READ_TIMEOUT_MS,
      uploadsPerClient: deps.config.UPLOADS_PER_CLIENT,
      uploadsInAll: deps.config.UPLOADS_IN_ALL,
      clientOf: (c) => clientAddress(c, deps.config.TRUST_PROXY),
      maxJsonDepth: MAX_JSON_DEPTH,
      discardUpTo: MAX_DISCARDED_BODY_BYTES,
      discardWithinMs: Math.min(10_000, deps.config.BODY_READ_TIMEOUT_MS),
    }),
  );
  app.use('/api/*', idempotency({ db: deps.database.db }));
  app.use('/api/admin/*', adminStepUp(deps));

  // One sub-app per URL prefix, its paths relative to it.
  app.route('/api', healthRoutes(deps)); // /api/health, /api/ready
  app.route('/api/auth', authRoutes(deps));
  app.route('/api/profile', profileRoutes(deps));
  app.route('/api/setup', setupRoutes(deps));
  app.route('/api/escrows', escrowRoutes(deps));
  app.route('/api/escrows', escrowProofRoutes(deps)); // /api/escrows/{id}/proof
  app.route('/api/escrows', messageRoutes(deps)); // /api/escrows/{id}/messages
  app.route('/api/transparency', transparencyRoutes(deps));
  app.route('/api/evidence', evidenceRoutes(deps));
  app.route('/api/reviews', reviewRoutes(deps));
  app.route('/api/btc-rate', btcRateRoutes(deps));
  app.route('/api', siteRoutes(deps)); // /api/site, /api/pgp-key, /api/contact
  app.route('/api/admin/escrows', adminEscrowRoutes(deps));
  app.route('/api/admin/disputes', adminDisputeRoutes(deps));
  app.route('/api/admin/pending-verifications', pendingVerificationRoutes(deps));
  app.route('/api/admin/users', adminUserRoutes(deps));
  app.route('/api/admin/reviews', adminReviewRoutes(deps));
  app.route('/api/admin/addresses', adminAddressRoutes(deps));
  app.route('/api/admin/btc-rate', adminBtcRateRoutes(deps));
  app.route('/api/admin', adminLedgerRoutes(deps)); // audit-logs, events, events/export, replay, chain
  app.route('/api/tokens', apiTokenRoutes(deps));
  app.route('/api/webhooks', webhookRoutes(deps, 'user'));
  app.route('/api/admin/webhooks', webhookRoutes(deps, 'admin'));
  app.route('/api/admin/reports', adminReportRoutes(deps));

  documentRoutes(app.openAPIRegistry);
  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Bitcoin escrow API', version: VERSION },
  });
  app.route(
    '/',
    metricsRoutes(deps, metrics, { served: deps.config.METRICS_TOKEN !== undefined, token: deps.config.METRICS_TOKEN }),
  );
  app.route('/api/docs', apiDocsRoutes());
  app.all('/api/*', () => {
    throw notFound('No such API route');
  });
  app.route('/', tileRoutes(deps)); // /tlog/checkpoint, /tlog/tile/...
  if (options.webDist) app.route('/', staticApp(options.webDist));

  app.onError((error, c) => {
    const mapped = toHttpError(error);
    if (mapped.unexpected) {
      deps.logger.error({ request_id: c.get('requestId'), err: error }, 'request failed');
    }
    for (const [name, value] of Object.entries(mapped.headers)) c.header(name, value);
    return c.json({ detail: mapped.detail, code: mapped.code }, mapped.status as 400);
  });
  app.notFound((c) => c.json({ detail: 'Not found', code: 'not_found' }, 404));
  return app;
}

export type App = ReturnType<typeof createApp>;
