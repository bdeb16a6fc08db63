import { OpenAPIHono } from '@hono/zod-openapi';
import { MAX_UPLOAD_BODY_BYTES } from '../escrows/evidence.ts';
import { invalidInput, notFound } from '../../domain/shared/errors.ts';
import type { AppDeps } from '../app-deps.ts';
import type { AppEnv } from './env.ts';
import { describeZodError, toHttpError, unstorableField } from './errors.ts';
import { authenticate } from './middleware/authenticate.ts';
import { bodyLimits } from './middleware/body-limits.ts';
import { adminStepUp } from './middleware/admin-step-up.ts';
import { idempotency } from './middleware/idempotency.ts';
import { requestContext } from './middleware/request-context.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { authRoutes } from './routes/accounts/auth.ts';
import { profileRoutes } from './routes/accounts/profile.ts';
import { setupRoutes } from './routes/accounts/setup.ts';
import { adminAddressRoutes } from './routes/admin/addresses.ts';
import { adminBtcRateRoutes } from './routes/admin/btc-rate.ts';
import { adminDisputeRoutes } from './routes/admin/escrows/disputes.ts';
import { adminEscrowRoutes } from './routes/admin/escrows/escrows.ts';
import { pendingVerificationRoutes } from './routes/admin/escrows/pending-verifications.ts';
import { adminLedgerRoutes } from './routes/admin/ledger.ts';
import { adminReviewRoutes } from './routes/admin/reviews.ts';
import { adminUserRoutes } from './routes/admin/users.ts';
import { escrowRoutes } from './routes/escrows/escrows.ts';
import { evidenceRoutes } from './routes/escrows/evidence.ts';
import { btcRateRoutes } from './routes/pricing/btc-rate.ts';
import { reviewRoutes } from './routes/reviews/reviews.ts';
import { apiDocsRoutes } from './routes/site/api-docs.ts';
import { healthRoutes } from './routes/site/health.ts';
import { siteRoutes } from './routes/site/site.ts';
import { documentRoutes } from './documentation.ts';
import { staticApp } from './static-app.ts';
import { escrowProofRoutes, tileRoutes, transparencyRoutes } from './routes/transparency/transparency.ts';
import { createMetrics } from '../metrics/metrics.ts';
import { metricsRoutes } from '../metrics/route.ts';

/** Largest body of any call but an evidence upload. */
const MAX_BODY_BYTES = 1024 * 1024;
/** A refused or unread body up to this size is read away so that its connection serves the next request. */
const MAX_DISCARDED_BODY_BYTES = 16 * 1024 * 1024;

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
      if (field !== undefined) throw invalidInput(`${field || result.target} must not contain NUL characters or unpaired surrogates`);
    },
  });

  const metrics = deps.metrics ?? createMetrics();
  app.use('*', requestContext({ logger: deps.logger, metrics }));
  app.use('*', securityHeaders());
  app.use(
    '*',
    bodyLimits({
      limitFor: (path) => (path.endsWith('/mark-paid') ? MAX_UPLOAD_BODY_BYTES : MAX_BODY_BYTES),
      discardUpTo: MAX_DISCARDED_BODY_BYTES,
      discardWithinMs: 10_000,
    }),
  );
  app.use('/api/*', authenticate({ db: deps.database.db }));
  app.use('/api/*', idempotency({ db: deps.database.db }));
  app.use('/api/admin/*', adminStepUp(deps));

  // One sub-app per URL prefix, its paths relative to it.
  app.route('/api', healthRoutes(deps)); // /api/health, /api/ready
  app.route('/api/auth', authRoutes(deps));
  app.route('/api/profile', profileRoutes(deps));
  app.route('/api/setup', setupRoutes(deps));
  app.route('/api/escrows', escrowRoutes(deps));
  app.route('/api/escrows', escrowProofRoutes(deps)); // /api/escrows/{id}/proof
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

  documentRoutes(app.openAPIRegistry);
  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Bitcoin escrow API', version: '0.1.0' },
  });
  app.route('/', metricsRoutes(deps, metrics, { served: deps.config.METRICS_TOKEN !== undefined, token: deps.config.METRICS_TOKEN }));
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
