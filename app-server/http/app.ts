import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MAX_UPLOAD_BODY_BYTES } from '../escrows/evidence.ts';
import { invalidInput, notFound } from '../../domain/shared/errors.ts';
import type { AppDeps, AppEnv } from './env.ts';
import { describeZodError, toHttpError, unstorableField } from './errors.ts';
import { authenticate } from './middleware/authenticate.ts';
import { idempotency } from './middleware/idempotency.ts';
import { requestContext } from './middleware/request-context.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { adminAddressRoutes } from './routes/admin-addresses.ts';
import { adminAuditRoutes } from './routes/admin-audit.ts';
import { adminReviewRoutes } from './routes/admin-reviews.ts';
import { adminUserRoutes } from './routes/admin-users.ts';
import { authRoutes } from './routes/auth.ts';
import { escrowActionRoutes } from './routes/escrow-actions.ts';
import { escrowPaymentRoutes } from './routes/escrow-payments.ts';
import { escrowRoutes } from './routes/escrows.ts';
import { healthRoutes } from './routes/health.ts';
import { pricingRoutes } from './routes/pricing.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { setupRoutes } from './routes/setup.ts';
import { siteRoutes } from './routes/site.ts';
import { staticApp } from './static-app.ts';
import { createMetrics } from '../metrics/metrics.ts';
import { metricsRoutes } from '../metrics/route.ts';

/** Largest body of any call but an evidence upload. */
const MAX_BODY_BYTES = 1024 * 1024;

export interface AppOptions {
  /** The built web app to serve at `/`; omitted in API-only tests. */
  webDist?: string;
}

/** The whole HTTP surface: API under /api, the web app everywhere else. */
export function createApp(deps: AppDeps, options: AppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw invalidInput(describeZodError(result.error));
      const field = unstorableField(result.data);
      if (field !== undefined) throw invalidInput(`${field || result.target} must not contain NUL characters or unpaired surrogates`);
    },
  });

  const metrics = deps.metrics ?? createMetrics();
  app.use('*', requestContext({ logger: deps.logger, metrics }));
  app.use('*', securityHeaders());
  // Counted while the body streams in: a client that lies about (or omits) its length is cut off at the limit.
  const tooLarge = (c: Context) => c.json({ detail: 'Request body is too large', code: 'payload_too_large' }, 413);
  const smallBody = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge });
  const uploadBody = bodyLimit({ maxSize: MAX_UPLOAD_BODY_BYTES, onError: tooLarge });
  // GET and HEAD requests never carry a body here (the server does not read one); not asking for it spares building
  // a whole Fetch Request for every read (a tenth of a GET's CPU).
  const bodiless = (c: Context) => c.req.method === 'GET' || c.req.method === 'HEAD';
  app.use('/api/*', (c, next) => (bodiless(c) ? next() : (c.req.path.endsWith('/mark-paid') ? uploadBody : smallBody)(c, next)));
  app.use('/api/*', authenticate({ db: deps.database.db }));
  app.use('/api/*', idempotency({ db: deps.database.db }));

  app.route('/api', healthRoutes(deps));
  app.route('/api', authRoutes(deps));
  app.route('/api', adminUserRoutes(deps));
  app.route('/api', reviewRoutes(deps));
  app.route('/api', adminReviewRoutes(deps));
  app.route('/api', pricingRoutes(deps));
  app.route('/api', adminAddressRoutes(deps));
  app.route('/api', adminAuditRoutes(deps));
  app.route('/api', escrowRoutes(deps));
  app.route('/api', escrowActionRoutes(deps));
  app.route('/api', escrowPaymentRoutes(deps));
  app.route('/api', siteRoutes(deps));
  app.route('/api', setupRoutes(deps));

  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Bitcoin escrow API', version: '0.1.0' },
  });
  app.route('/', metricsRoutes(deps, metrics, { served: deps.config.METRICS_TOKEN !== undefined, token: deps.config.METRICS_TOKEN }));
  app.all('/api/*', () => {
    throw notFound('No such API route');
  });
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
