/**
 * Reliability against real server processes (`npm run test:reliability`), each scenario on a fresh store:
 *   crash     200 concurrent escrow creations (every 8th one the server must refuse), the server killed with
 *             SIGKILL mid-way, restarted: every write answered 2xx is in the log and the read models, nothing
 *             answered with an error is; the chain verifies; replay matches. On PGlite and on PostgreSQL.
 *   outage    the database goes away under a running server, twice, through a TCP proxy in between: stopped
 *             (every connection dropped, new ones refused) and silent (new connections accepted, never
 *             answered): /api/ready says not ready and requests get a 503 with a detail within seconds; when
 *             the database is back everything works again without a restart.
 *   two       two server processes on one PostgreSQL: concurrent commands through both keep one chain, sessions
 *             and rate limits hold across both, every queued mail is delivered exactly once through a local SMTP
 *             server slow enough that both processes send at the same time.
 *   stdout    the reader of the server's standard output stalls (the pipe fills) and then goes away (the pipe breaks):
 *             the server still answers, stops on SIGTERM and frees the data directory's lock.
 *   npx tsx e2e/reliability.ts [--only crash,outage,two,stdout] [--postgres postgres://postgres@127.0.0.1:5432/postgres]
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket, connect } from 'node:net';
import { freePort } from './support/free-port.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { outbox, type SendInit, send } from './client.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'crash,outage,two,stdout' },
    postgres: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const only = new Set(values.only!.split(','));
const root = new URL('..', import.meta.url).pathname;
const ADMIN = { username: 'reladmin', password: 'reliability admin password' };
const PASSWORD = 'reliability user password';
let failures = 0;

function check(condition: unknown, what: string): void {
  console.log(`${condition ? 'ok  ' : 'FAIL'} ${what}`);
  if (!condition) failures += 1;
}

// --- stores and servers ---

interface Store {
  env: Record<string, string>;
  databaseUrl?: string;
  dispose: () => Promise<void>;
}

async function freshPostgres(): Promise<Store> {
  const name = `escrow_rel_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: values.postgres });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(values.postgres!);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    databaseUrl: url.toString(),
    dispose: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

function freshPglite(dataDir: string): Store {
  return { env: { DATA_DIR: dataDir }, dispose: async () => undefined };
}

interface Running {
  base: string;
  child: ChildProcess;
  dataDir: string;
}

/** `npm start` in its own process group, with its own data directory (mail outbox file, secret key). */
async function startServer(store: Store, dataDir: string, env: Record<string, string> = {}): Promise<Running> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    ...store.env,
    ...env,
    PORT: String(port),
    LOG_LEVEL: 'error',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_EMAIL: 'reladmin@example.com',
    ADMIN_PASSWORD: ADMIN.password,
    SECRET_KEY: SHARED_SECRET,
    // What is tested here is crashes, outages and two processes, not admin powers (no 2FA) nor abuse limits (200 deals).
    ADMIN_2FA_REQUIRED: 'false',
    RATE_LIMIT_ESCROWS: '100000',
    MAX_UNPAID_ESCROWS: '100000',
  };
  if (!store.env.DATABASE_URL && !env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  for (let i = 0; i < 240; i++) {
    if (
      await fetch(`${base}/api/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { base, child, dataDir };
    await sleep(250);
  }
  throw new Error('the server did not become ready in 60 s');
}

// Both processes of one store must open each other's sealed secrets.
const SHARED_SECRET = randomBytes(32).toString('hex');

async function stopServer(server: Running, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const exited = new Promise((r) => server.child.once('exit', r));
  try {
    process.kill(-server.child.pid!, signal);
  } catch {
    return;
  }
  await exited;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const call = (base: string, path: string, init: SendInit = {}) => send(`${base}/api${path}`, init);

async function signIn(base: string, username: string, password: string): Promise<string> {
  const answer = await call(base, '/auth/login', { json: { username, password } });
  if (answer.status !== 200) throw new Error(`sign-in of ${username}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return String(answer.body.access_token);
}

/** The verification link mailed to `to`, read from the server's outbox file (or from what an SMTP server received). */
async function verificationToken(to: string, mails: () => Array<{ to: string; text: string }>): Promise<string> {
  for (let i = 0; i < 60; i++) {
    const token = /token=([A-Za-z0-9_-]+)/.exec(
      mails()
        .filter((m) => m.to === to)
        .at(-1)?.text ?? '',
    )?.[1];
    if (token) return token;
    await sleep(500);
  }
  throw new Error(`no verification mail to ${to}`);
}

/**
 * The admin sets the rate; a seller registers, confirms their e-mail (only then may they open escrows) and signs in
 * (sellers' escrows take no pool address).
 */
async function market(
  server: Running,
  name: string,
  mails: () => Array<{ to: string; text: string }> = () => outbox(join(server.dataDir, 'mail-outbox.jsonl')),
) {
  const admin = await signIn(server.base, ADMIN.username, ADMIN.password);
  await call(server.base, '/admin/btc-rate', { method: 'PUT', token: admin, form: { btc_usd_rate: '50000' } });
  const username = `${name}${Date.now().toString(36)}`;
  const email = `${username}@example.com`;
  const registered = await call(server.base, '/auth/register', {
    json: { full_name: 'Rel Seller', email, username, password: PASSWORD, confirm_password: PASSWORD, role: 'seller' },
  });
  if (registered.status !== 201) throw new Error(`registration: ${registered.status}`);
  const verified = await call(server.base, '/auth/verify-email', {
    json: { token: await verificationToken(email, mails) },
  });
  if (verified.status !== 200) throw new Error(`e-mail verification: ${verified.status}`);
  return { admin, seller: await signIn(server.base, username, PASSWORD), username };
}

const deal = (label: string) => ({
  product_service: label,
  description: 'Reliability deal',
  amount_usd: '100.00',
  deadline_days: 7,
  buyer_email: 'relbuyer@example.com',
});

function cli(store: Store, dataDir: string, ...args: string[]): string {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...store.env, LOG_LEVEL: 'error' };
  if (!store.env.DATABASE_URL) delete env.DATABASE_URL;
  try {
    return execFileSync('npx', ['tsx', 'app-server/cli/main.ts', ...args], {
      cwd: root,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    return `FAILED ${(error as { stdout?: string }).stdout ?? ''} ${(error as { stderr?: string }).stderr ?? ''}`;
  }
}

// --- crash ---

async function crash(backend: 'pglite' | 'postgres'): Promise<void> {
  console.log(`\n== crash on ${backend}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'escrow-rel-'));
  const store = backend === 'postgres' ? await freshPostgres() : freshPglite(dataDir);
  try {
    let server = await startServer(store, dataDir);
    const { seller } = await market(server, 'crash');
    const acked: string[] = [];
    const refused: string[] = [];
    let unanswered = 0;
    const writes = Array.from({ length: 200 }, async (_, i) => {
      const label = `crash-${i}`;
      // Every 8th asks for a deadline past 90 days: refused, and it must leave nothing behind.
      const body = i % 8 === 7 ? { ...deal(label), deadline_days: 91 } : deal(label);
      try {
        const answer = await call(server.base, '/escrows', { token: seller, json: body });
        if (answer.status >= 200 && answer.status < 300) acked.push(label);
        else refused.push(label);
      } catch {
        unanswered += 1;
      }
    });
    // Killed once a quarter of them are answered: the rest are in flight, some inside their transaction.
    for (let i = 0; i < 600 && acked.length + refused.length < 50; i++) await sleep(10);
    await stopServer(server, 'SIGKILL');
    await Promise.all(writes);
    console.log(
      `  answered 2xx: ${acked.length}, answered with an error: ${refused.length}, no answer (killed): ${unanswered}`,
    );
    check(
      acked.length > 0 && unanswered > 0,
      `the kill landed mid-way (${acked.length} acknowledged before it, ${unanswered} cut off)`,
    );

    server = await startServer(store, dataDir);
    const listed = await call(server.base, '/escrows', { token: seller }); // sessions live in the database
    const labels = new Set(
      (listed.body as unknown as Array<{ product_service: string }>).map((e) => e.product_service),
    );
    check(
      acked.every((l) => labels.has(l)),
      `all ${acked.length} acknowledged escrows are in the read model after the restart`,
    );
    check(refused.length > 0 && refused.every((l) => !labels.has(l)), `none of the ${refused.length} refused ones is`);
    console.log(
      `  escrows in the read model after the restart: ${labels.size} (${acked.length} acknowledged, the rest were cut off mid-write)`,
    );
    await stopServer(server);
    check(/ok/i.test(cli(store, dataDir, 'verify-chain')), 'the chain verifies after the crash');
    const replay = cli(store, dataDir, 'replay');
    check(/\bmatch\b/.test(replay) && !/MISMATCH/.test(replay), 'replay matches the read models after the crash');
    const events = cli(store, dataDir, 'verify-chain');
    console.log(`  ${events.trim().split('\n').at(-1)}`);
  } finally {
    await store.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// --- outage ---

/**
 * A TCP proxy to PostgreSQL that can fail in two ways and be restored: `cut` drops every connection and refuses new
 * ones (the server stopped); `silence` drops every connection and accepts new ones without ever answering (a host
 * that takes connections but never replies: only the pool's connect timeout ends the wait).
 */
async function proxyTo(target: URL) {
  const sockets = new Set<Socket>();
  let mode: 'up' | 'cut' | 'silent' = 'up';
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  };
  const server: Server = createServer((client) => {
    if (mode === 'cut') return client.destroy();
    track(client);
    if (mode === 'silent') return; // held open, never answered
    const upstream = connect(Number(target.port || 5432), target.hostname);
    track(upstream);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const dropAll = () => {
    for (const s of sockets) s.destroy();
  };
  return {
    port: (server.address() as { port: number }).port,
    cut: () => {
      mode = 'cut';
      dropAll();
    },
    silence: () => {
      mode = 'silent';
      dropAll();
    },
    restore: () => {
      dropAll(); // silent connections never reached the database
      mode = 'up';
    },
    close: () => {
      dropAll();
      server.close();
    },
  };
}

/** A call whose hang (no answer in `timeoutMs`) is reported as status 0 rather than thrown. */
const callOrHang = (base: string, path: string, init: SendInit & { timeoutMs: number }) =>
  call(base, path, init).catch(() => ({
    status: 0,
    body: { detail: `no answer in ${init.timeoutMs} ms` } as Record<string, unknown>,
  }));

/** During an outage: /api/ready, a write and a public read each answer 503 with a detail within `withinMs`. */
async function expectUnavailable(base: string, seller: string, label: string, withinMs: number): Promise<void> {
  let started = performance.now();
  const ready = await callOrHang(base, '/ready', { timeoutMs: 15_000 });
  const readyMs = performance.now() - started;
  check(
    ready.status === 503 && ready.body.ready === false && typeof ready.body.detail === 'string',
    `${label}: /api/ready answers 503 not ready (${Math.round(readyMs)} ms: ${ready.body.detail})`,
  );
  check(readyMs < withinMs, `and within ${withinMs / 1000} s`);
  started = performance.now();
  const write = await callOrHang(base, '/escrows', { token: seller, json: deal(`during ${label}`), timeoutMs: 15_000 });
  const writeMs = performance.now() - started;
  check(
    write.status === 503 && typeof write.body.detail === 'string',
    `${label}: a write gets 503 with a detail (${write.status} in ${Math.round(writeMs)} ms: ${write.body.detail})`,
  );
  check(writeMs < withinMs, `and within ${withinMs / 1000} s, no hang`);
  const read = await callOrHang(base, '/reviews', { timeoutMs: 15_000 });
  check(
    read.status === 503 && typeof read.body.detail === 'string',
    `${label}: a public read gets 503 with a detail (${read.status})`,
  );
}

/** After an outage: ready again without a restart, and writes work. */
async function expectRecovered(base: string, seller: string, label: string): Promise<void> {
  let back = false;
  const started = performance.now();
  while (!back && performance.now() - started < 30_000) {
    back = (await callOrHang(base, '/ready', { timeoutMs: 5_000 })).status === 200;
    if (!back) await sleep(250);
  }
  check(
    back,
    `ready again by itself ${Math.round(performance.now() - started)} ms after the database answered again (${label})`,
  );
  check(
    (await call(base, '/escrows', { token: seller, json: deal(`after ${label}`) })).status === 201,
    `a write works after the ${label}`,
  );
}

async function outage(): Promise<void> {
  console.log('\n== outage on postgres');
  const dataDir = mkdtempSync(join(tmpdir(), 'escrow-rel-'));
  const store = await freshPostgres();
  const target = new URL(store.databaseUrl!);
  const proxy = await proxyTo(target);
  const viaProxy = new URL(store.databaseUrl!);
  viaProxy.port = String(proxy.port);
  try {
    const server = await startServer(store, dataDir, { DATABASE_URL: viaProxy.toString() });
    const { seller } = await market(server, 'outage');
    check(
      (await call(server.base, '/escrows', { token: seller, json: deal('before') })).status === 201,
      'a write works before the outage',
    );

    proxy.cut();
    await expectUnavailable(server.base, seller, 'server stopped', 6_000);
    proxy.restore();
    await expectRecovered(server.base, seller, 'server stopped');

    // Connections accepted and never answered: the pool gives up after its connect timeout (5 s); the error it
    // raises carries a message and no code.
    proxy.silence();
    await expectUnavailable(server.base, seller, 'host silent', 8_000);
    proxy.restore();
    await expectRecovered(server.base, seller, 'host silent');

    const labels = (
      (await call(server.base, '/escrows', { token: seller })).body as unknown as Array<{ product_service: string }>
    )
      .map((e) => e.product_service)
      .sort();
    check(
      JSON.stringify(labels) === JSON.stringify(['after host silent', 'after server stopped', 'before']),
      `the refused writes left nothing behind (${labels.join(', ')})`,
    );
    await stopServer(server);
  } finally {
    proxy.close();
    await store.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// --- two processes ---

/**
 * A local SMTP server that takes `delayMs` to accept each message, as real ones do: the two processes' sending rounds
 * then overlap, so a mail claimed by both would be delivered twice. Records each delivery's sender and body.
 */
async function slowSmtpServer(delayMs: number) {
  const received: Array<{ from: string; to: string; body: string }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const message = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        // The body alone: headers such as Message-ID and Date differ between two sends of the same mail.
        const body = message.slice(message.indexOf('\r\n\r\n') + 4);
        setTimeout(() => {
          for (const to of session.envelope.rcptTo) received.push({ from, to: to.address, body });
          done();
        }, delayMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function twoProcesses(): Promise<void> {
  console.log('\n== two server processes on one postgres');
  const [dirA, dirB] = [mkdtempSync(join(tmpdir(), 'escrow-rel-a-')), mkdtempSync(join(tmpdir(), 'escrow-rel-b-'))];
  const store = await freshPostgres();
  const smtp = await slowSmtpServer(40);
  try {
    const a = await startServer(store, dirA, { SMTP_URL: smtp.url, MAIL_FROM: 'process-a@example.com' });
    const b = await startServer(store, dirB, { SMTP_URL: smtp.url, MAIL_FROM: 'process-b@example.com' });
    const { seller, username } = await market(a, 'two', () =>
      smtp.received.map((m) => ({ to: m.to, text: m.body.replace(/=\r?\n/g, '').replace(/=3D/gi, '=') })),
    ); // quoted-printable undone
    check(
      (await call(b.base, '/escrows', { token: seller })).status === 200,
      'a session opened on one process holds on the other',
    );

    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call(i % 2 ? a.base : b.base, '/escrows', { token: seller, json: deal(`two-${i}`) }),
      ),
    );
    check(
      answers.every((x) => x.status === 201),
      `60 concurrent creations through both processes: all 201 (${answers.filter((x) => x.status === 201).length})`,
    );
    const labels = new Set(
      ((await call(a.base, '/escrows', { token: seller })).body as unknown as Array<{ product_service: string }>).map(
        (e) => e.product_service,
      ),
    );
    check(labels.size === 60, `both processes see all 60 (${labels.size})`);

    // One invitation per escrow; each must be delivered once, by whichever process claimed it, through SMTP.
    const invitations = () => smtp.received.filter((m) => m.to === 'relbuyer@example.com');
    for (let i = 0; i < 60 && invitations().length < 60; i++) await sleep(500);
    await sleep(4_000); // two more sender rounds on both processes: no duplicate may appear
    const sent = invitations();
    const byA = sent.filter((m) => m.from === 'process-a@example.com').length;
    check(
      sent.length === 60 && new Set(sent.map((m) => m.body)).size === 60,
      `60 invitations delivered exactly once across both processes by a slow SMTP server (${sent.length} delivered, ${new Set(sent.map((m) => m.body)).size} distinct; ${byA} by one process, ${sent.length - byA} by the other)`,
    );
    check(byA > 0 && byA < sent.length, 'both processes delivered some: their sending rounds overlapped');

    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (await call(i % 2 ? a.base : b.base, '/auth/login', { json: { username, password: 'wrong password' } })).status,
      );
    check(
      statuses.includes(429),
      `failed sign-ins alternating between the processes are rate-limited together (${statuses.join(' ')})`,
    );

    await Promise.all([stopServer(a), stopServer(b)]);
    check(/ok/i.test(cli(store, dirA, 'verify-chain')), 'one chain, and it verifies');
    const replay = cli(store, dirA, 'replay');
    check(/\bmatch\b/.test(replay) && !/MISMATCH/.test(replay), 'replay matches');
  } finally {
    await smtp.close();
    await store.dispose();
    rmSync(dirA, { recursive: true, force: true });
    rmSync(dirB, { recursive: true, force: true });
  }
}

// --- stdout ---

/**
 * The server's standard output is a pipe whose reader first reads nothing (the pipe fills: 64 KiB here, a few
 * hundred request lines) and then goes away (the pipe breaks), either before the SIGTERM or while the server stops.
 * Logging must never hold the process up: it answers throughout, stops on SIGTERM and frees the PGlite lock (it
 * used to spin for ever in the logger's exit flush, retrying the full and then broken pipe).
 */
async function stdoutReaderGone(readerGoes: 'before SIGTERM' | 'after SIGTERM'): Promise<void> {
  console.log(`\n== the reader of stdout stalls, then goes away ${readerGoes}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'escrow-rel-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'info',
    SECRET_KEY: SHARED_SECRET,
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['app-server/start.mjs'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  child.stdout!.pause();
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const health = () =>
    fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.status,
      () => 0,
    );
  try {
    let ready = false;
    for (let i = 0; i < 240 && !ready; i++) {
      ready = await fetch(`${base}/api/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (!ready) await sleep(250);
    }
    check(ready, 'the server started with its stdout read by nobody');
    // Each answered request logs a line: 2,000 of them fill the pipe many times over.
    let answered = 0;
    for (let round = 0; round < 40; round++) {
      const statuses = await Promise.all(Array.from({ length: 50 }, health));
      answered += statuses.filter((s) => s === 200).length;
    }
    check(answered === 2_000, `it answers while the pipe is full (${answered} of 2000 requests answered)`);
    if (readerGoes === 'before SIGTERM') {
      child.stdout!.destroy(); // the next write to the pipe fails with EPIPE
      await sleep(200);
      const after = await Promise.all(Array.from({ length: 50 }, health));
      check(
        after.every((s) => s === 200),
        `it answers once the reader is gone (${after.filter((s) => s === 200).length} of 50)`,
      );
    }
    const started = Date.now();
    process.kill(-child.pid!, 'SIGTERM');
    if (readerGoes === 'after SIGTERM') setTimeout(() => child.stdout!.destroy(), 1_000);
    // Node reports a child's exit only once its stdout is closed too: ask the system instead.
    const running = () => {
      try {
        process.kill(child.pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 150 && running(); i++) await sleep(100);
    const stoppedAfter = Date.now() - started;
    check(
      !running(),
      `it stops on SIGTERM (${running() ? 'still running' : 'gone'} ${stoppedAfter} ms after the signal)`,
    );
    if (!running()) check((await exited) === 0, 'with exit code 0');
    check(!existsSync(join(dataDir, 'pglite.lock')), 'and frees the data directory (pglite.lock removed)');
  } finally {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (only.has('stdout')) {
  await stdoutReaderGone('before SIGTERM');
  await stdoutReaderGone('after SIGTERM');
}
if (only.has('crash')) {
  await crash('pglite');
  await crash('postgres');
}
if (only.has('outage')) await outage();
if (only.has('two')) await twoProcesses();
console.log(failures ? `\n${failures} check(s) FAILED` : '\nall reliability checks passed');
process.exit(failures ? 1 : 0);
