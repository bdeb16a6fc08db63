import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every figure /metrics shows, in a registry of its own (one per app: tests build many). Counters and the latency
 * histogram count what this process saw; the gauges are read from the database at each scrape (state.ts), so every
 * app server of one deployment reports the same state.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: 'escrow_http_requests_total',
      help: 'API requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    requestSeconds: new Histogram({
      name: 'escrow_http_request_duration_seconds',
      help: 'Time to answer an API request, by method and route pattern',
      labelNames: ['method', 'route'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    appends: new Counter({
      name: 'escrow_appends_total',
      help: 'Appends to the event log by this process, by outcome (committed, conflict: refused because a stream or a unique value changed meanwhile, failed)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    appendedEvents: new Counter({
      name: 'escrow_appended_events_total',
      help: 'Events appended by this process',
      registers,
    }),
    chainStatus: new Gauge({
      name: 'escrow_chain_watch_status',
      help: "The server's own check of the hash chain: 1 for the current status (ok, broken or unverified)",
      labelNames: ['status'] as const,
      registers,
    }),
    chainVerifiedUpTo: new Gauge({
      name: 'escrow_chain_verified_up_to',
      help: 'The last position the chain watch verified',
      registers,
    }),
    chainHead: new Gauge({
      name: 'escrow_chain_head_position',
      help: 'Position of the last event in the log',
      registers,
    }),
    mailOutbox: new Gauge({
      name: 'escrow_mail_outbox',
      help: 'Unsent mail by state: queued (never tried), retrying (failed at least once, will retry), given_up (failed every attempt)',
      labelNames: ['state'] as const,
      registers,
    }),
    mailFailedAttempts: new Gauge({
      name: 'escrow_mail_failed_attempts',
      help: 'Failed delivery attempts of mail not sent yet',
      registers,
    }),
    poolAddresses: new Gauge({
      name: 'escrow_pool_addresses',
      help: 'Payment addresses in the pool, by status',
      labelNames: ['status'] as const,
      registers,
    }),
    escrows: new Gauge({
      name: 'escrow_escrows',
      help: 'Escrows by status',
      labelNames: ['status'] as const,
      registers,
    }),
    satsHeld: new Gauge({
      name: 'escrow_satoshis_held',
      help: 'Satoshis of escrows paid in and not yet paid out (funded, disputed or frozen after funding)',
      registers,
    }),
    rateSet: new Gauge({
      name: 'escrow_btc_rate_set',
      help: '1 when an admin has set a BTC/USD rate, else 0',
      registers,
    }),
    rateAge: new Gauge({
      name: 'escrow_btc_rate_age_seconds',
      help: 'Seconds since the BTC/USD rate was last set (0 while none is set)',
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
