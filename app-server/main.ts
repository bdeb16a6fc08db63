import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { ensureAdmin } from './accounts/first-admin.ts';
import { adminExists, issueSetupLink } from './accounts/first-admin-setup.ts';
import { CHAIN_FIRST_CHECK_AFTER_MS } from './audit/chain-watch.ts';
import { ConfigError, loadConfig, publicUrl, scrubSecrets } from './config.ts';
import { createApp } from './http/app.ts';
import { applyServerTimeouts } from './http/server-timeouts.ts';
import { expireOverdueEscrows } from './jobs/expire-escrows.ts';
import { runInspectionClock } from './jobs/inspection.ts';
import { housekeeping } from './jobs/housekeeping.ts';
import { startPeriodic } from './jobs/periodic.ts';
import { createLogger } from './logger.ts';
import { deliverDueMail } from './mail/sender.ts';
import { mailTransportFor } from './mail/transport-for.ts';
import { sendDueMessageDigests } from './messages/message-mail.ts';
import { openRuntime } from './runtime.ts';
import { metricsRoutes } from './metrics/route.ts';
import { deliverDueWebhooks } from './webhooks/deliver.ts';

// The repository root, both from app-server/main.ts and from its bundle in dist/server.mjs.
const root = fileURLToPath(new URL('..', import.meta.url));

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(scrubSecrets(error.message));
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);

  const deps = await openRuntime(config, logger);
  if (config.ADMIN_USERNAME && config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const outcome = await ensureAdmin(deps, {
      username: config.ADMIN_USERNAME,
      email: config.ADMIN_EMAIL,
      password: config.ADMIN_PASSWORD,
    });
    logger.info(
      { username: config.ADMIN_USERNAME },
      outcome === 'created' ? 'Created the first admin' : 'Admin user already exists; left unchanged',
    );
  }
  const app = createApp(deps, { webDist: `${root}web/dist` });
  const transport = mailTransportFor(config);
  logger.info({ mail: transport.describe }, `Mail goes to ${transport.describe}`);
  // The transparency log names its key (first start), then keeps its tree and signs checkpoints on its loops.
  await deps.transparency!.introduceKey(deps.store);
  const jobs = [
    deps.transparency!.start(),
    startPeriodic('mail', 2_000, () => deliverDueMail(deps.database.db, transport, logger), logger),
    startPeriodic(
      'webhooks',
      2_000,
      () =>
        deliverDueWebhooks({
          db: deps.database.db,
          secrets: deps.secrets,
          logger,
          allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
        }),
      logger,
    ),
    startPeriodic('escrow-expiry', 60_000, () => expireOverdueEscrows(deps), logger),
    startPeriodic('message-digests', 60_000, () => sendDueMessageDigests(deps, publicUrl(config)), logger),
    // Every few seconds: a period may end at any minute, and a moved clock (the browser suite) is seen at once.
    startPeriodic('inspection', 5_000, () => runInspectionClock(deps), logger),
    startPeriodic('housekeeping', 10 * 60_000, () => housekeeping(deps.database.db), logger),
  ];
  // The chain watch starts with the whole log, in the background. It waits a little, so that a start and its first
  // requests (say, an export of a million events) do not share the machine with it; /api/ready says 'unverified'.
  const chainWatchStart = setTimeout(() => jobs.push(deps.chainWatch!.start()), CHAIN_FIRST_CHECK_AFTER_MS);
  // While no admin exists: a one-time link to /setup, on the terminal only (never in a log file or an event).
  const setupLink = process.stdout.isTTY ? await issueSetupLink(deps) : null;
  if (!process.stdout.isTTY && !(await adminExists(deps.database.db))) {
    logger.warn('No admin yet: run `npm run cli -- setup-link` in a terminal for a one-time link to create one');
  }
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
    logger.info({ port: info.port, host: config.HOST }, `Listening on http://${config.HOST}:${info.port}`);
    if (setupLink)
      process.stdout.write(
        `\n  No admin yet. Create the first one here (the link works once):\n\n    ${setupLink}\n\n`,
      );
  });

  const timeouts = {
    idleMs: config.HTTP_IDLE_TIMEOUT_MS,
    headersMs: config.HTTP_HEADERS_TIMEOUT_MS,
    bodyMs: config.BODY_READ_TIMEOUT_MS,
  };
  applyServerTimeouts(server as Server, timeouts);

  // METRICS_PORT: /metrics alone on a port of its own (for a monitoring network), the token still asked if set.
  const metricsServer =
    config.METRICS_PORT === undefined || !deps.metrics
      ? undefined
      : serve({
          fetch: metricsRoutes(deps, deps.metrics, { served: true, token: config.METRICS_TOKEN }).fetch,
          port: config.METRICS_PORT,
          hostname: config.HOST,
        });

  if (metricsServer) applyServerTimeouts(metricsServer as Server, timeouts);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearTimeout(chainWatchStart);
    logger.info({ signal }, 'Shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      logger.warn('Grace period over; closing remaining connections');
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    }, config.SHUTDOWN_GRACE_MS);
    force.unref();
    metricsServer?.close();
    server.close(async () => {
      await Promise.all(jobs.map((job) => job.stop()));
      await deps.transparency?.idle(); // a tree catch-up after the last append, before the database goes
      await deps.database.close();
      logger.info('Database closed; bye');
      process.exit(0);
    });
    (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(`Failed to start: ${scrubSecrets(error instanceof Error ? error.message : String(error))}`);
  process.exit(1);
});
