import { createWriteStream, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ensureAdmin } from '../accounts/first-admin.ts';
import { issueSetupLink } from '../accounts/first-admin-setup.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { openRuntime } from '../runtime.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { formatSats } from '../../domain/money.ts';
import { chainHash } from '../../domain/chain.ts';
import { checkProofBundle, type ProofBundle } from '../../domain/transparency/proof.ts';
import { CheckpointsAgainstExport } from '../transparency/export-checkpoints.ts';
import { replaceLogSigningKeyFile } from '../transparency/signing-key.ts';
import { ExportBroken, verifyExport } from '../audit/verify-export.ts';
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
  verify-export  FILE [--expect-head POS:HASH] [--checkpoint NOTES [--vkey VKEY]]: check an export offline (no
                 database) and replay it; each signed checkpoint in NOTES must match the file's own Merkle tree
  verify-proof   FILE [--vkey VKEY]: check an escrow's proof (GET /api/escrows/{id}/proof) offline
  rotate-log-key a new key signs the transparency log's checkpoints from now on (LogKeyRotated); restart servers
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
      const { values } = parseArgs({ args, options: { out: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } } });
      if (!values.out) {
        console.error('Usage: npm run cli -- export-events --out FILE [--from POSITION] [--to POSITION]');
        return 2;
      }
      const file = createWriteStream(values.out);
      const write = (line: string) =>
        new Promise<void>((resolve, reject) => (file.write(line, (error) => (error ? reject(error) : resolve()))));
      const range = { ...(values.from ? { from: Number(values.from) } : {}), ...(values.to ? { to: Number(values.to) } : {}) };
      const { events, last } = await exportEvents(database.db, write, range);
      await new Promise<void>((resolve) => file.end(resolve));
      console.log(`exported ${events} events (up to position ${last}) to ${values.out}`);
      return 0;
    }),
  'verify-export': async (args) => {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { 'expect-head': { type: 'string' }, checkpoint: { type: 'string' }, vkey: { type: 'string' } } });
    const file = positionals[0];
    if (!file) {
      console.error('Usage: npm run cli -- verify-export FILE [--expect-head POSITION:HASH]');
      return 2;
    }
    const [position, hash] = (values['expect-head'] ?? '').split(':');
    const expectHead = values['expect-head'] ? { position: Number(position), hash: hash ?? '' } : undefined;
    const started = performance.now();
    try {
      const checkpoints = values.checkpoint ? new CheckpointsAgainstExport(readFileSync(values.checkpoint, 'utf8'), values.vkey) : undefined;
      const summary = await verifyExport(file, { ...(expectHead ? { expectHead } : {}), ...(checkpoints ? { checkpoints } : {}) });
      const seconds = (performance.now() - started) / 1000;
      console.log(`events: ${summary.events} (${seconds.toFixed(2)} s, ${Math.round(summary.events / seconds)} events/s)`);
      console.log('chain: ok');
      if (checkpoints) console.log(`checkpoints: ${checkpoints.count} ok (signed, and the export's tree has their roots)`);
      for (const [status, count] of Object.entries(summary.escrowsByStatus).sort()) console.log(`escrows ${status}: ${count}`);
      console.log(`BTC held in funded escrows: ${formatSats(summary.satsHeldInFunded)}`);
      console.log(`BTC released to sellers: ${formatSats(summary.satsReleasedToSellers)}`);
      console.log(`BTC refunded to buyers: ${formatSats(summary.satsRefundedToBuyers)}`);
      console.log(`BTC kept as fees: ${formatSats(summary.feeSats)}`);
      console.log(`last hash: ${summary.head.position}:${summary.head.hash}`);
      return 0;
    } catch (error) {
      if (error instanceof ExportBroken) {
        console.error(`BROKEN at ${error.message}`);
        return 1;
      }
      throw error;
    }
  },
  'verify-proof': async (args) => {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { vkey: { type: 'string' } } });
    if (!positionals[0]) {
      console.error('Usage: npm run cli -- verify-proof FILE [--vkey VKEY]');
      return 2;
    }
    let bundle: ProofBundle;
    try {
      bundle = JSON.parse(readFileSync(positionals[0], 'utf8')) as ProofBundle;
    } catch (error) {
      console.error(`BROKEN: ${positionals[0]} is not a proof file (${(error as Error).message})`);
      return 1;
    }
    const result = checkProofBundle(bundle, { chainHash, ...(values.vkey ? { vkey: values.vkey } : {}) });
    if (!result.ok) {
      console.error(`BROKEN: ${result.reason}`);
      return 1;
    }
    if (!values.vkey) console.log(`note: checked with the key the file names (${bundle.vkey}); pass --vkey with the key you trust`);
    console.log(`proof: ok (${result.events} events included in the checkpoint of size ${result.size})`);
    return 0;
  },
  'rotate-log-key': () =>
    withRuntime(async (deps) => {
      if (deps.config.LOG_SIGNING_KEY) {
        console.error('LOG_SIGNING_KEY is set: set it to a new key (64 hex) and restart; the servers then need the log to name it, so run this without LOG_SIGNING_KEY on a key file instead');
        return 1;
      }
      const next = replaceLogSigningKeyFile(deps.config.DATA_DIR);
      const vkey = await deps.transparency!.rotateTo(deps.store, next);
      console.log(`log key rotated: checkpoints are signed by ${vkey} from now on (restart every server)`);
      return 0;
    }),
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
