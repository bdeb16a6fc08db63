/**
 * The API under load, from outside the server process (autocannon, 32 connections): GET /api/reviews with 100,000
 * reviews, GET /api/escrows for a buyer with 50 escrows in a store of 100,000, POST /api/escrows, and the baseline
 * GET /bench/pk/:id (one primary-key SELECT through the same pool, bench/api-server.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import type { Kysely } from 'kysely';
import { openDatabase } from '../app-server/db/database.ts';
import type { Database } from '../app-server/db/schema.ts';
import { createEventStore } from '../app-server/event-store/append.ts';
import type { EventStore, StreamAppend } from '../app-server/event-store/event-store.ts';
import { escrowAggregate } from '../domain/aggregates.ts';
import type { DomainEvent } from '../domain/events.ts';
import { projections } from '../projections/registry.ts';
import { type SendInit, send } from '../e2e/client.ts';
import { PRICING } from './generated-history.ts';
import { benchPort } from './ports.ts';
import { repeated } from './results.ts';

export interface LoadFigures {
  perSecond: number;
  p99Ms: number;
}

const ratings = [5, 4.5, 4, 3.5, 3] as const;
const countries = ['Germany', 'France', 'Brazil', 'Japan', 'Kenya', 'Canada'];
const BATCH = 500;

/** `total` reviews, 9 in 10 approved, appended 500 per append through the store with every projection. */
export async function seedReviews(store: EventStore, total: number): Promise<string> {
  let someId = '';
  for (let done = 0; done < total; done += BATCH) {
    const appends: StreamAppend[] = [];
    for (let i = done; i < Math.min(done + BATCH, total); i++) {
      const id = randomUUID();
      const events: DomainEvent[] = [
        {
          type: 'ReviewSubmitted',
          data: {
            review_id: id,
            name: `Reviewer ${i}`,
            email: null,
            country: countries[i % countries.length]!,
            rating: ratings[i % 5]!,
            text: `Review number ${i}`,
            escrow_id: null,
            verified_deal: false,
          },
        },
      ];
      if (i % 10 !== 0) {
        events.push({ type: 'ReviewApproved', data: {} });
        someId = id;
      }
      appends.push({ streamId: `review:${id}`, streamType: 'review', expectedVersion: 0, events });
    }
    await store.append(appends, { actor: 'system', request_id: 'bench' });
  }
  return someId;
}

/** `total` escrows between generated parties, decided by the escrow decider, 500 per append. */
async function seedEscrows(store: EventStore, total: number): Promise<void> {
  for (let done = 0; done < total; done += BATCH) {
    const appends: StreamAppend[] = [];
    for (let i = done; i < Math.min(done + BATCH, total); i++) {
      const id = randomUUID();
      const buyer = randomUUID();
      const events = escrowAggregate.decide(
        {
          type: 'create',
          by: 'buyer',
          escrow_id: id,
          created_by: buyer,
          creator_side: 'buyer',
          creator_email: `buyer-${i}@example.com`,
          counterparty_email: `seller-${i % 5_000}@example.com`,
          product_service: `Item ${i}`,
          description: 'Generated deal',
          amount_cents: 1_000 + i,
          deadline_days: 30,
          pricing: PRICING,
        },
        escrowAggregate.initial(),
        { now: new Date().toISOString(), newId: randomUUID, actor: buyer },
      );
      appends.push({ streamId: `escrow:${id}`, streamType: 'escrow', expectedVersion: 0, events });
    }
    await store.append(appends, { actor: 'system', request_id: 'bench' });
  }
}

const ADMIN = { username: 'benchadmin', email: 'benchadmin@example.com', password: 'bench admin password 1' };
const PASSWORD = 'bench user password 1';

async function startApiServer(databaseUrl: string, port: number, profileDir?: string): Promise<ChildProcess> {
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'bench/api-server.ts'], {
    cwd: new URL('..', import.meta.url).pathname,
    // The seeding admin sets the rate without an authenticator, and one seller opens escrows for the whole run:
    // what is measured is the reads and the creation, not the step-up or the per-user limit.
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_2FA_REQUIRED: 'false',
      RATE_LIMIT_ESCROWS: '100000',
      MAX_UNPAID_ESCROWS: '100000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 120; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/api/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill('SIGKILL');
  throw new Error('the benchmark API server did not become ready in 60 s');
}

/**
 * Waits until the server has hashed the seeded log into the transparency tree. It does that in its own process
 * after start; a profile of the loads showed that work (SHA-256, hex decoding, the tree's inserts) taking a tenth
 * of the server's CPU during the first loads, which measured the catch-up, not the routes.
 */
async function treeCaughtUp(db: Kysely<Database>): Promise<void> {
  for (let i = 0; i < 1_200; i++) {
    const head = await db.selectFrom('chain_head').select('position').where('id', '=', 1).executeTakeFirstOrThrow();
    const tree = await db.selectFrom('tlog_state').select('size').where('id', '=', 1).executeTakeFirstOrThrow();
    if (Number(tree.size) >= Number(head.position)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not bring the transparency tree up to the log in 10 minutes');
}

/** A call that must succeed: its JSON body. */
async function call(base: string, path: string, init: SendInit = {}) {
  const answer = await send(`${base}${path}`, init);
  if (answer.status >= 400)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A verified user through the API (registration, the token from the mail, sign-in); returns a bearer token. */
async function verifiedUser(
  base: string,
  db: Kysely<Database>,
  username: string,
  role: 'buyer' | 'seller',
): Promise<string> {
  const email = `${username}@example.com`;
  await call(base, '/api/auth/register', {
    json: { full_name: `${username} Bench`, email, username, password: PASSWORD, confirm_password: PASSWORD, role },
  });
  const mail = await db
    .selectFrom('mail_outbox')
    .select('body')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  await call(base, '/api/auth/verify-email', { json: { token: /token=([A-Za-z0-9_-]+)/.exec(mail.body)?.[1] } });
  return String((await call(base, '/api/auth/login', { json: { username, password: PASSWORD } })).access_token);
}

async function load(options: autocannon.Options): Promise<LoadFigures> {
  const result = await autocannon({ connections: 32, duration: 10, ...options });
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(
      `${options.method ?? 'GET'} ${options.url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return { perSecond: result.requests.total / (result.duration || 1), p99Ms: result.latency.p99 };
}

/** Each load as many times as `repeated` runs it: the reads in rounds (baseline, reviews, list), then the writes. */
export interface ApiFigures {
  primaryKey: LoadFigures[];
  reviews: LoadFigures[];
  escrows: LoadFigures[];
  create: LoadFigures[];
}

/** A seeded store with the benchmark's server running on it, and who is signed in. */
export interface ApiBench {
  /** `http://127.0.0.1:<port>` */
  base: string;
  server: ChildProcess;
  /** A review's id, for the primary-key baseline. */
  reviewId: string;
  /** Bearer tokens: a buyer with 50 escrows, and the seller of them. */
  buyer: string;
  seller: string;
}

const deal = (n: number) => ({
  product_service: `Bench item ${n}`,
  description: 'Benchmark deal',
  amount_usd: '1250.00',
  deadline_days: 7,
});

/**
 * Seeds the PostgreSQL database at `databaseUrl` (fresh, migrated) with 100,000 reviews and 100,000 escrows, starts
 * the server on it (with `profileDir` it writes a CPU profile there when it stops), signs in a buyer with 50 escrows
 * and their seller, waits for the transparency tree, then hands all that to `work` and stops the server.
 */
export async function withApiBench<T>(
  databaseUrl: string,
  work: (bench: ApiBench) => Promise<T>,
  profileDir?: string,
): Promise<T> {
  const database = await openDatabase({ databaseUrl, poolSize: 4 });
  let server: ChildProcess | undefined;
  try {
    const store = createEventStore(database.db, projections);
    const started = performance.now();
    const reviewId = await seedReviews(store, 100_000);
    await seedEscrows(store, 100_000 - 50);
    console.log(
      `  seeded 100,000 reviews and 99,950 escrows in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );

    const port = benchPort(3900, 100);
    server = await startApiServer(databaseUrl, port, profileDir);
    const base = `http://127.0.0.1:${port}`;
    const admin = String(
      (await call(base, '/api/auth/login', { json: { username: ADMIN.username, password: ADMIN.password } }))
        .access_token,
    );
    await call(base, '/api/admin/btc-rate', { method: 'PUT', token: admin, form: { btc_usd_rate: '50000' } });
    const buyer = await verifiedUser(base, database.db, 'benchbuyer', 'buyer');
    const seller = await verifiedUser(base, database.db, 'benchseller', 'seller');
    for (let i = 0; i < 50; i++)
      await call(base, '/api/escrows', { token: buyer, json: { ...deal(i), seller_email: 'benchseller@example.com' } });

    await treeCaughtUp(database.db);
    return await work({ base, server, reviewId, buyer, seller });
  } finally {
    if (server) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    await database.close();
  }
}

/**
 * The API benchmarks on the PostgreSQL database at `databaseUrl` (fresh, migrated); with `profileDir` the server
 * writes a CPU profile there when it stops.
 */
export function apiBenchmarks(databaseUrl: string, seconds: number, profileDir?: string): Promise<ApiFigures> {
  return withApiBench(
    databaseUrl,
    async ({ base, reviewId, buyer, seller }) => {
      const duration = seconds;
      const rounds = await repeated(async () => ({
        primaryKey: await load({ url: `${base}/bench/pk/${reviewId}`, duration }),
        reviews: await load({ url: `${base}/api/reviews`, duration }),
        escrows: await load({ url: `${base}/api/escrows`, headers: { authorization: `Bearer ${buyer}` }, duration }),
      }));
      const listed = await call(base, '/api/escrows', { token: buyer });
      if (Object.keys(listed).length !== 50)
        throw new Error(`the buyer should see 50 escrows, saw ${Object.keys(listed).length}`);
      // After the reads: each escrow created binds the buyer, whose list would grow.
      const create = await repeated(() =>
        load({
          url: `${base}/api/escrows`,
          method: 'POST',
          headers: { authorization: `Bearer ${seller}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...deal(0), buyer_email: 'benchbuyer@example.com' }),
          duration,
        }),
      );
      const primaryKey = rounds.map((r) => r.primaryKey);
      const reviews = rounds.map((r) => r.reviews);
      const escrows = rounds.map((r) => r.escrows);
      return { primaryKey, reviews, escrows, create };
    },
    profileDir,
  );
}
