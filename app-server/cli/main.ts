import { createWriteStream, fchmodSync, openSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ensureAdmin } from '../accounts/first-admin.ts';
import { issueSetupLink } from '../accounts/first-admin-setup.ts';
import { ConfigError, configSchema, loadConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { openRuntime } from '../runtime.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { formatSats } from '../../domain/money.ts';
import { ExportBroken, verifyExport } from '../audit/verify-export.ts';
import { reportRangeQuery } from '../../contract/reports.ts';
import { formatBooks } from '../../projections/books/books.ts';
import { exportProofs, proofsPathOf } from '../audit/export-proofs.ts';
import { exportEvents } from '../event-store/export.ts';
import { readChainHead } from '../event-store/chain-head.ts';
import { verifyChain } from '../event-store/verify-chain.ts';
import { formatReplayReport, replayProjections } from '../replay.ts';
import { diagnose, formatFindings } from './doctor.ts';
import { formatDemoReport } from './demo-report.ts';
import { seedDemo, StoreNotEmpty } from '../demo/seed-demo.ts';
import { backupCommand, importEventsCommand, resetPasswordCommand } from './restore.ts';

const usage = `Usage: npm run cli -- <command>

Commands:
  migrate        apply pending database migrations
  replay         [--swap]: rebuild every read model from the event log and compare with the live tables;
                 --swap then replaces the live tables' rows with the rebuilt ones (appends wait meanwhile)
  verify-chain   recompute every event hash and check the chain links
  export-events  --out FILE [--from N] [--to N]: write the log as NDJSON
  verify-export  FILE [--expect-head POS:HASH] [--from DATE] [--to DATE]: check an export offline (no database),
                 replay it and print the books of the range (the console's Overview figures)
  chain-head     print the position and hash of the last event, to publish
  create-admin   --username U --email E --password P: create an admin unless that username exists
  import-events  FILE: load an export into an empty store (checking the chain) and rebuild every read model
  backup         --out DIR: PGlite only: a consistent copy of the data directory (PostgreSQL: pg_dump)
  seed-demo      fill an EMPTY store with demo accounts, a rate, 20 addresses, escrows, disputes and reviews
  setup-link     while no admin exists: print a one-time link to /setup where the first admin is created
  doctor         check configuration, database, migrations, chain, mail, pool, rate and admins; exit 1 on a problem
  reset-password --username U: give a user a temporary password (printed) to change at the next sign-in

The database is the one the server uses: DATABASE_URL, else PGlite under DATA_DIR.`;

type Command = (args: string[]) => Promise<number>;

async function withDatabase<T>(
  work: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>,
): Promise<T> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrateToLatest(database.db);
    return await work(database);
  } finally {
    await database.close();
  }
}

async function withRuntime<T>(work: (deps: Awaited<ReturnType<typeof openRuntime>>) => Promise<T>): Promise<T> {
  const deps = await openRuntime(loadConfig(), createLogger('warn'));
  try {
    return await work(deps);
  } finally {
    await deps.database.close();
  }
}

const commands: Record<string, Command> = {
  migrate: () =>
    withDatabase(async (database) => {
      console.log(`database: ${database.backend} ${database.location}`);
      console.log('migrations: up to date');
      return 0;
    }),
  replay: (args) =>
    withDatabase(async (database) => {
      const { values } = parseArgs({ args, options: { swap: { type: 'boolean', default: false } } });
      const report = await replayProjections(database, { swap: values.swap });
      console.log(formatReplayReport(report));
      return report.match || report.swapped ? 0 : 1;
    }),
  'create-admin': (args) =>
    withRuntime(async (deps) => {
      const { values } = parseArgs({
        args,
        options: { username: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' } },
      });
      if (!values.username || !values.email || !values.password) {
        console.error('Usage: npm run cli -- create-admin --username U --email E --password P');
        return 2;
      }
      const outcome = await ensureAdmin(deps, { username: values.username, email: values.email, password: values.password });
      console.log(outcome === 'created' ? `admin ${values.username} created` : `a user named ${values.username} already exists; nothing changed`);
      return 0;
    }),
  'export-events': (args) =>
    withDatabase(async (database) => {
      const { values } = parseArgs({ args, options: { out: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, 'with-proofs': { type: 'boolean' } } });
      if (!values.out) {
        console.error('Usage: npm run cli -- export-events --out FILE [--from POSITION] [--to POSITION] [--with-proofs]');
        return 2;
      }
      // Names and e-mails are in it: readable by its owner only, even when it replaces a file that was not.
      const fd = openSync(values.out, 'w', 0o600);
      fchmodSync(fd, 0o600);
      const file = createWriteStream('', { fd });
      const write = (line: string) =>
        new Promise<void>((resolve, reject) => (file.write(line, (error) => (error ? reject(error) : resolve()))));
      const range = { ...(values.from ? { from: Number(values.from) } : {}), ...(values.to ? { to: Number(values.to) } : {}) };
      const { events, last } = await exportEvents(database.db, write, range);
      await new Promise<void>((resolve) => file.end(resolve));
      console.log(`exported ${events} events (up to position ${last}) to ${values.out}`);
      if (values['with-proofs']) {
        const proofsFile = createWriteStream(proofsPathOf(values.out));
        const proofs = await exportProofs(database.db, (chunk) => new Promise<void>((resolve, reject) => proofsFile.write(chunk, (error) => (error ? reject(error) : resolve()))));
        await new Promise<void>((resolve) => proofsFile.end(resolve));
        console.log(`exported ${proofs} payment proofs to ${proofsPathOf(values.out)}`);
      }
      return 0;
    }),
  'verify-export': async (args) => {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { 'expect-head': { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, 'with-proofs': { type: 'boolean' }, proofs: { type: 'string' } },
    });
    const file = positionals[0];
    const range = reportRangeQuery.safeParse({ from: values.from, to: values.to });
    if (!file || !range.success) {
      if (!range.success) console.error(range.error.issues[0]!.message);
      console.error('Usage: npm run cli -- verify-export FILE [--expect-head POSITION:HASH] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--with-proofs [--proofs PROOFS_FILE]]');
      return 2;
    }
    // Proofs are judged by the rules in force here (MIN_WORK_BITS, MIN_CONFIRMATIONS from the environment).
    const proofRulesHere = () => {
      const config = configSchema.pick({ MIN_WORK_BITS: true, MIN_CONFIRMATIONS: true }).parse(process.env);
      return { path: values.proofs ?? proofsPathOf(file), minWorkBits: config.MIN_WORK_BITS, minConfirmations: config.MIN_CONFIRMATIONS };
    };
    const [position, hash] = (values['expect-head'] ?? '').split(':');
    const expectHead = values['expect-head'] ? { position: Number(position), hash: hash ?? '' } : undefined;
    const started = performance.now();
    try {
      const summary = await verifyExport(file, {
        ...(expectHead ? { expectHead } : {}),
        range: range.data,
        ...(values['with-proofs'] ? { withProofs: proofRulesHere() } : {}),
      });
      const seconds = (performance.now() - started) / 1000;
      console.log(`events: ${summary.events} (${seconds.toFixed(2)} s, ${Math.round(summary.events / seconds)} events/s)`);
      console.log('chain: ok');
      if (summary.proofsChecked !== undefined) console.log(`payment proofs: ${summary.proofsChecked} re-checked, ok`);
      for (const [status, count] of Object.entries(summary.escrowsByStatus).sort()) console.log(`escrows ${status}: ${count}`);
      console.log(`BTC held in funded escrows: ${formatSats(summary.satsHeldInFunded)}`);
      console.log(`BTC released to sellers: ${formatSats(summary.satsReleasedToSellers)}`);
      console.log(`BTC refunded to buyers: ${formatSats(summary.satsRefundedToBuyers)}`);
      console.log(`BTC kept as fees: ${formatSats(summary.feeSats)}`);
      console.log(`last hash: ${summary.head.position}:${summary.head.hash}`);
      for (const line of formatBooks(summary.books)) console.log(line);
      return 0;
    } catch (error) {
      if (error instanceof ExportBroken) {
        console.error(`BROKEN at ${error.message}`);
        return 1;
      }
      throw error;
    }
  },
  'seed-demo': () =>
    withRuntime(async (deps) => {
      try {
        const report = await seedDemo(deps);
        console.log(formatDemoReport(report, deps));
        return 0;
      } catch (error) {
        if (error instanceof StoreNotEmpty) {
          console.error(`REFUSED: ${error.message}`);
          return 1;
        }
        throw error;
      }
    }),
  'setup-link': () =>
    withRuntime(async (deps) => {
      const link = await issueSetupLink(deps);
      if (!link) {
        console.error('An admin exists already: sign in, or use create-admin / reset-password');
        return 1;
      }
      console.log(`Create the first admin here (the link works once, until an admin exists):\n\n  ${link}\n`);
      return 0;
    }),
  doctor: async () => {
    const config = loadConfig();
    const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
    try {
      const { text, exitCode } = formatFindings(await diagnose(config, database));
      console.log(text);
      return exitCode;
    } finally {
      await database.close();
    }
  },
  'import-events': (args) => withDatabase((database) => importEventsCommand(database, args)),
  backup: (args) => withDatabase((database) => backupCommand(database, args)),
  'reset-password': (args) => withRuntime((deps) => resetPasswordCommand(deps, args)),
  'chain-head': () =>
    withDatabase(async (database) => {
      const head = await readChainHead(database.db);
      console.log(`${head.position}:${head.hash}`);
      return 0;
    }),
  'verify-chain': () =>
    withDatabase(async (database) => {
      const report = await verifyChain(database.db);
      console.log(`events: ${report.events}`);
      console.log(`head: ${report.head.position}:${report.head.hash}`);
      if (report.firstBreak)
        console.log(`BROKEN at position ${report.firstBreak.position}: ${report.firstBreak.reason}`);
      else console.log('chain: ok');
      return report.ok ? 0 : 1;
    }),
};

async function main(): Promise<number> {
  const [name, ...rest] = process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--'));
  const command = name ? commands[name] : undefined;
  if (!command) {
    console.error(name ? `Unknown command: ${name}\n\n${usage}` : usage);
    return 2;
  }
  return command(rest);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      error instanceof ConfigError ? error.message : `Failed: ${(error as Error).message ?? error}`,
    );
    process.exit(1);
  },
);
