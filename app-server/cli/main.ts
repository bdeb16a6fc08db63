import { createWriteStream, fchmodSync, openSync, readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ensureAdmin } from '../accounts/first-admin.ts';
import { issueSetupLink } from '../accounts/first-admin-setup.ts';
import { backupDir, type Config, ConfigError, configSchema, loadConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { openRuntime } from '../runtime.ts';
import { type DatabaseHandle, openDatabase } from '../db/database.ts';
import { migrateToLatest, pendingMigrations } from '../db/migrate.ts';
import { migrations } from '../../migrations/index.ts';
import { formatSats } from '../../domain/money.ts';
import { chainHash } from '../../domain/chain.ts';
import { checkProofBundle, type ProofBundle } from '../../domain/transparency/proof.ts';
import { CheckpointsAgainstExport } from '../transparency/export-checkpoints.ts';
import { replaceLogSigningKeyFile } from '../transparency/signing-key.ts';
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
import { DEMO_CALLS, seedDemo, StoreNotEmpty } from '../demo/seed-demo.ts';
import { backupStore } from './backup.ts';
import { type Progress, startProgress } from './progress.ts';
import { collectGarbageWhileRunning } from './heap.ts';
import { importEventsCommand, resetPasswordCommand } from './restore.ts';

/** One command: its line in the list, its own help, and what it does. */
interface Command {
  summary: string;
  usage: string;
  help: string;
  run: (args: string[]) => Promise<number>;
}

/** A mistake in the arguments: printed with the command's usage, exit 2. */
class UsageError extends Error {}

/** The store is behind on migrations and this command only reads: it says so and changes nothing. */
class StoreBehind extends Error {}

function parse<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError((error as Error).message);
    throw error;
  }
}

const progressFor = (label: string) => (unit: string, total?: number) =>
  startProgress(label, { unit, ...(total === undefined ? {} : { total }) });

/** A command reads the log once: a small PGlite buffer cache, as the engine's memory never shrinks (database.ts). */
const CLI_SHARED_BUFFERS = '32MB';

async function openConfigured() {
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    pgliteSharedBuffers: CLI_SHARED_BUFFERS,
  });
  return { config, database };
}

/** The database as it is, migrated first: for the commands that write. */
async function withDatabase<T>(work: (db: DatabaseHandle) => Promise<T>): Promise<T> {
  const { database } = await openConfigured();
  try {
    await migrateToLatest(database.db);
    return await work(database);
  } finally {
    await database.close();
  }
}

/**
 * The database for a command that only reads: never migrated (a backup or an export must not change what it
 * copies). A store behind on migrations is refused, naming them.
 */
async function withStoreAsIs<T>(
  work: (db: DatabaseHandle, config: Config) => Promise<T>,
  options: { behindIsFine?: boolean } = {},
): Promise<T> {
  const { config, database } = await openConfigured();
  try {
    const pending = options.behindIsFine ? [] : await pendingMigrations(database.db);
    if (pending.length) {
      throw new StoreBehind(
        `the store has ${pending.length} migration(s) pending (${pending.join(', ')}); this command only reads and does not apply them: run npm run cli -- migrate first (npm start also applies them)`,
      );
    }
    return await work(database, config);
  } finally {
    await database.close();
  }
}

async function withRuntime<T>(work: (deps: Awaited<ReturnType<typeof openRuntime>>) => Promise<T>): Promise<T> {
  const deps = await openRuntime(loadConfig(), createLogger('warn'), { pgliteSharedBuffers: CLI_SHARED_BUFFERS });
  try {
    return await work(deps);
  } finally {
    // The transparency tree follows each append in the background: let it finish before the database closes.
    await deps.transparency?.idle();
    await deps.database.close();
  }
}

const commands: Record<string, Command> = {
  migrate: {
    summary: 'apply pending database migrations, naming each',
    usage: 'migrate',
    help: 'Applies every migration the database has not applied yet and lists them (npm start does the same).',
    run: (args) => {
      parse({ args, options: {} });
      return withStoreAsIs(
        async (database) => {
          console.log(`database: ${database.backend} ${database.location}`);
          const applied = await migrateToLatest(database.db);
          if (applied.length === 0)
            console.log(`migrations: up to date (${Object.keys(migrations).length} applied earlier)`);
          else {
            console.log(`applied ${applied.length} migration(s):`);
            for (const name of applied) console.log(`  ${name}`);
          }
          return 0;
        },
        { behindIsFine: true },
      );
    },
  },
  replay: {
    summary: 'rebuild every read model from the log and compare it with the live tables',
    usage: 'replay [--swap]',
    help: `Rebuilds every read model from the event log into scratch tables and compares them row by row with the live
tables (exit 1 on a mismatch). --swap then replaces the live tables' rows with the rebuilt ones.`,
    run: (args) => {
      const { values } = parse({ args, options: { swap: { type: 'boolean', default: false } } });
      return withDatabase(async (database) => {
        const head = await readChainHead(database.db);
        const progress = startProgress('replay', { unit: 'events', total: head.position });
        let swapping: Progress | undefined;
        const report = await replayProjections(database, {
          swap: values.swap,
          onProgress: (n) => progress.update(n),
          onSwapProgress: (rows, total) => {
            if (!swapping) {
              progress.finish();
              swapping = startProgress('replay --swap: rewrite', { unit: 'rows', total });
            }
            swapping.update(rows);
          },
        });
        progress.finish();
        swapping?.finish();
        console.log(formatReplayReport(report));
        return report.match || report.swapped ? 0 : 1;
      });
    },
  },
  'verify-chain': {
    summary: 'recompute every event hash and check the chain links',
    usage: 'verify-chain',
    help: 'Recomputes every event hash from what is stored and checks each link and the recorded chain head; names the\nfirst bad position (exit 1). Reads only: never migrates.',
    run: (args) => {
      parse({ args, options: {} });
      return withStoreAsIs(async (database) => {
        const progress = startProgress('verify-chain', { unit: 'events' });
        const report = await verifyChain(database.db, {
          onProgress: (checked, total) => {
            progress.setTotal(total);
            progress.update(checked);
          },
        });
        progress.finish();
        console.log(`events: ${report.events}`);
        console.log(`head: ${report.head.position}:${report.head.hash}`);
        if (report.firstBreak)
          console.log(`BROKEN at position ${report.firstBreak.position}: ${report.firstBreak.reason}`);
        else console.log('chain: ok');
        return report.ok ? 0 : 1;
      });
    },
  },
  'export-events': {
    summary: 'write the log as NDJSON',
    usage: 'export-events --out FILE [--from N] [--to N] [--with-proofs]',
    help:
      'Writes the log as NDJSON (a header line, then one line per event with its hash) to FILE, owner-readable only.\n' +
      'With --with-proofs, the payment proofs go to FILE.proofs.ndjson beside it.\nReads only: never migrates.',
    run: (args) => {
      const { values } = parse({
        args,
        options: {
          out: { type: 'string' },
          from: { type: 'string' },
          to: { type: 'string' },
          'with-proofs': { type: 'boolean' },
        },
      });
      if (!values.out) throw new UsageError('--out FILE is required');
      const out = values.out;
      const range = {
        ...(values.from ? { from: positionArg('--from', values.from) } : {}),
        ...(values.to ? { to: positionArg('--to', values.to) } : {}),
      };
      return withStoreAsIs(async (database) => {
        const head = await readChainHead(database.db);
        const total = Math.max(
          0,
          Math.min(range.to ?? head.position, head.position) - Math.max(range.from ?? 1, 1) + 1,
        );
        const progress = startProgress('export-events', { unit: 'events', total });
        // Names and e-mails are in it: readable by its owner only, even when it replaces a file that was not.
        const fd = openSync(out, 'w', 0o600);
        fchmodSync(fd, 0o600);
        const file = createWriteStream('', { fd });
        const write = (chunk: string) =>
          new Promise<void>((resolve, reject) => {
            let lines = 0;
            for (let i = chunk.indexOf('\n'); i !== -1; i = chunk.indexOf('\n', i + 1)) lines++;
            file.write(chunk, (error) => (error ? reject(error) : resolve()));
            progress.add(lines);
          });
        const { events, last } = await exportEvents(database.db, write, range);
        await new Promise<void>((resolve, reject) =>
          file.end((error?: Error | null) => (error ? reject(error) : resolve())),
        );
        progress.update(events);
        progress.finish();
        console.log(`exported ${events} events (up to position ${last}) to ${out}`);
        if (values['with-proofs']) {
          const proofsFile = createWriteStream(proofsPathOf(out), { mode: 0o600 });
          const proofs = await exportProofs(
            database.db,
            (chunk) =>
              new Promise<void>((resolve, reject) =>
                proofsFile.write(chunk, (error) => (error ? reject(error) : resolve())),
              ),
          );
          await new Promise<void>((resolve) => proofsFile.end(resolve));
          console.log(`exported ${proofs} payment proofs to ${proofsPathOf(out)}`);
        }
        return 0;
      });
    },
  },
  'verify-export': {
    summary: 'check an export offline (no database) and replay it',
    usage:
      'verify-export FILE [--expect-head POSITION:HASH] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--with-proofs [--proofs PROOFS_FILE]] [--checkpoint NOTES [--vkey VKEY]]',
    help:
      'Checks an export with no database: every schema, hash and link, that its story is possible, then replays it in\n' +
      "memory and prints the books (of the --from/--to range: the console Overview's figures). --with-proofs re-checks\n" +
      "every payment proof from FILE.proofs.ndjson (or --proofs) under this environment's MIN_WORK_BITS and MIN_CONFIRMATIONS.\n" +
      "Each signed checkpoint in NOTES (--checkpoint) must be signed by VKEY (or the key it names) and match the file's own Merkle tree.",
    run: async (args) => {
      const { values, positionals } = parse({
        args,
        allowPositionals: true,
        options: {
          'expect-head': { type: 'string' },
          from: { type: 'string' },
          to: { type: 'string' },
          'with-proofs': { type: 'boolean' },
          proofs: { type: 'string' },
          checkpoint: { type: 'string' },
          vkey: { type: 'string' },
        },
      });
      const file = positionals[0];
      if (!file) throw new UsageError('FILE is required');
      const range = reportRangeQuery.safeParse({ from: values.from, to: values.to });
      if (!range.success) throw new UsageError(range.error.issues[0]!.message);
      // Proofs are judged by the rules in force here (MIN_WORK_BITS, MIN_CONFIRMATIONS from the environment).
      const proofRulesHere = () => {
        const config = configSchema.pick({ MIN_WORK_BITS: true, MIN_CONFIRMATIONS: true }).parse(process.env);
        return {
          path: values.proofs ?? proofsPathOf(file),
          minWorkBits: config.MIN_WORK_BITS,
          minConfirmations: config.MIN_CONFIRMATIONS,
        };
      };
      const [position, hash] = (values['expect-head'] ?? '').split(':');
      const expectHead = values['expect-head'] ? { position: Number(position), hash: hash ?? '' } : undefined;
      const started = performance.now();
      try {
        const checkpoints = values.checkpoint
          ? new CheckpointsAgainstExport(readFileSync(values.checkpoint, 'utf8'), values.vkey)
          : undefined;
        const summary = await verifyExport(file, {
          ...(expectHead ? { expectHead } : {}),
          ...(checkpoints ? { checkpoints } : {}),
          range: range.data,
          ...(values['with-proofs'] ? { withProofs: proofRulesHere() } : {}),
        });
        const seconds = (performance.now() - started) / 1000;
        console.log(
          `events: ${summary.events} (${seconds.toFixed(2)} s, ${Math.round(summary.events / seconds)} events/s)`,
        );
        console.log('chain: ok');
        if (checkpoints)
          console.log(`checkpoints: ${checkpoints.count} ok (signed, and the export's tree has their roots)`);
        if (summary.proofsChecked !== undefined) console.log(`payment proofs: ${summary.proofsChecked} re-checked, ok`);
        for (const [status, count] of Object.entries(summary.escrowsByStatus).sort())
          console.log(`escrows ${status}: ${count}`);
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
  },
  'verify-proof': {
    summary: "check an escrow's proof (GET /api/escrows/{id}/proof) offline",
    usage: 'verify-proof FILE [--vkey VKEY]',
    help: "Checks a proof file offline: each line's hash, each inclusion against the checkpoint's root, the note's signature.",
    run: async (args) => {
      const { values, positionals } = parse({ args, allowPositionals: true, options: { vkey: { type: 'string' } } });
      if (!positionals[0]) throw new UsageError('FILE is required');
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
      if (!values.vkey)
        console.log(`note: checked with the key the file names (${bundle.vkey}); pass --vkey with the key you trust`);
      console.log(`proof: ok (${result.events} events included in the checkpoint of size ${result.size})`);
      return 0;
    },
  },
  'rotate-log-key': {
    summary: "a new key signs the transparency log's checkpoints from now on; restart servers",
    usage: 'rotate-log-key',
    help: 'Makes a new signing key file and records LogKeyRotated; every server must be restarted to use it.',
    run: (args) => {
      parse({ args, options: {} });
      return withRuntime(async (deps) => {
        if (deps.config.LOG_SIGNING_KEY) {
          console.error(
            'LOG_SIGNING_KEY is set: set it to a new key (64 hex) and restart; the servers then need the log to name it, so run this without LOG_SIGNING_KEY on a key file instead',
          );
          return 1;
        }
        const next = replaceLogSigningKeyFile(deps.config.DATA_DIR);
        const vkey = await deps.transparency!.rotateTo(deps.store, next);
        console.log(`log key rotated: checkpoints are signed by ${vkey} from now on (restart every server)`);
        return 0;
      });
    },
  },
  'chain-head': {
    summary: 'print the position and hash of the last event, to publish',
    usage: 'chain-head',
    help: 'Prints position:hash of the last event, for operators to publish to auditors. Reads only: never migrates.',
    run: (args) => {
      parse({ args, options: {} });
      return withStoreAsIs(async (database) => {
        const head = await readChainHead(database.db);
        console.log(`${head.position}:${head.hash}`);
        return 0;
      });
    },
  },
  'create-admin': {
    summary: 'create an admin unless that username exists',
    usage: 'create-admin --username U --email E --password P',
    help: 'Creates an admin account unless a user with that username exists already.',
    run: (args) => {
      const { values } = parse({
        args,
        options: { username: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' } },
      });
      if (!values.username || !values.email || !values.password)
        throw new UsageError('--username, --email and --password are required');
      const { username, email, password } = values;
      return withRuntime(async (deps) => {
        const outcome = await ensureAdmin(deps, { username, email, password });
        console.log(
          outcome === 'created'
            ? `admin ${username} created`
            : `a user named ${username} already exists; nothing changed`,
        );
        return 0;
      });
    },
  },
  'import-events': {
    summary: 'load an export into an empty store (checking the chain) and rebuild every read model',
    usage: 'import-events FILE [--expect-head POSITION:HASH]',
    help:
      'Loads an export into a store with no events, checking every line (chain and story, as verify-export does; with\n' +
      '--expect-head, that the event at POSITION has HASH), then rebuilds every read model.',
    run: (args) => {
      const { values, positionals } = parse({
        args,
        allowPositionals: true,
        options: { 'expect-head': { type: 'string' } },
      });
      if (!positionals[0]) throw new UsageError('FILE is required');
      const [position, hash] = (values['expect-head'] ?? '').split(':');
      const expectHead = values['expect-head'] ? { position: Number(position), hash: hash ?? '' } : undefined;
      return withDatabase((database) => importEventsCommand(database, positionals[0]!, expectHead));
    },
  },
  backup: {
    summary: 'a consistent backup file of the store (PGlite: its data directory; PostgreSQL: pg_dump)',
    usage: 'backup [--out DIR]',
    help: `Writes a consistent backup into DIR (default BACKUP_DIR, else DATA_DIR/backups), owner-readable only:
  PGlite:     escrow-pglite-YYYYMMDD-HHMMSS.tar.gz, the data directory streamed as a gzipped tar (stop the server first)
  PostgreSQL: escrow-postgres-YYYYMMDD-HHMMSS.dump, pg_dump --format=custom (the servers keep running)
Reads only: never migrates. Restore: see README, "Back up and restore".`,
    run: (args) => {
      const { values } = parse({ args, options: { out: { type: 'string' } } });
      return withStoreAsIs(async (database, config) => {
        const { file, bytes } = await backupStore(database, values.out ?? backupDir(config), progressFor('backup'));
        console.log(`backup: ${file} (${bytes} bytes)`);
        if (database.backend === 'pglite')
          console.log(
            `restore: stop the server, then: mkdir -p NEW_DATA_DIR/pglite && tar -xzf ${file} -C NEW_DATA_DIR/pglite`,
          );
        else
          console.log(`restore: createdb NEW_DB && pg_restore --no-owner --dbname=postgres://USER@HOST/NEW_DB ${file}`);
        console.log(
          'Keep a copy of the key that seals TOTP secrets (SECRET_KEY, or DATA_DIR/secret.key) apart from this file.',
        );
        return 0;
      });
    },
  },
  'seed-demo': {
    summary: 'fill an EMPTY store with demo accounts, a rate, 20 addresses, escrows, disputes and reviews',
    usage: 'seed-demo',
    help: 'Fills an EMPTY store with demo data through the real API calls and prints the sign-ins. Refuses a store with events.',
    run: (args) => {
      parse({ args, options: {} });
      return withRuntime(async (deps) => {
        try {
          const progress = startProgress('seed-demo', { unit: 'calls', total: DEMO_CALLS });
          const report = await seedDemo(deps, { onCall: (n) => progress.update(n) });
          progress.finish();
          console.log(formatDemoReport(report, deps));
          return 0;
        } catch (error) {
          if (error instanceof StoreNotEmpty) {
            console.error(`REFUSED: ${error.message}`);
            return 1;
          }
          throw error;
        }
      });
    },
  },
  'setup-link': {
    summary: 'while no admin exists: print a one-time link to /setup where the first admin is created',
    usage: 'setup-link',
    help: 'While no admin exists, prints a one-time link to /setup where the first admin is created.',
    run: (args) => {
      parse({ args, options: {} });
      return withRuntime(async (deps) => {
        const link = await issueSetupLink(deps);
        if (!link) {
          console.error('An admin exists already: sign in, or use create-admin / reset-password');
          return 1;
        }
        console.log(`Create the first admin here (the link works once, until an admin exists):\n\n  ${link}\n`);
        return 0;
      });
    },
  },
  doctor: {
    summary:
      'check configuration, database, migrations, chain, mail, pool, rate, admins and backups; exit 1 on a problem',
    usage: 'doctor [--json]',
    help: 'Checks everything a deployment needs and names what is missing, with the fix; exit 1 on a problem.\n--json prints the findings as JSON. Reads only: never migrates.',
    run: async (args) => {
      const { values } = parse({ args, options: { json: { type: 'boolean', default: false } } });
      const { config, database } = await openConfigured();
      try {
        let chain: Progress | undefined;
        const findings = await diagnose(config, database, {
          onChainProgress: (checked, total) => {
            chain ??= startProgress('doctor: chain', { unit: 'events', total });
            chain.update(checked);
          },
        });
        chain?.finish();
        const { text, exitCode } = formatFindings(findings);
        console.log(values.json ? JSON.stringify({ ok: exitCode === 0, findings }, null, 2) : text);
        return exitCode;
      } finally {
        await database.close();
      }
    },
  },
  'reset-password': {
    summary: 'give a user a temporary password (printed) to change at the next sign-in',
    usage: 'reset-password --username U',
    help: 'Prints a temporary password for that user, who must change it at the next sign-in; their sessions end.',
    run: (args) => {
      const { values } = parse({ args, options: { username: { type: 'string' } } });
      if (!values.username) throw new UsageError('--username U is required');
      const username = values.username;
      return withRuntime((deps) => resetPasswordCommand(deps, username));
    },
  },
};

function positionArg(flag: string, value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw new UsageError(`${flag} must be an event position (a whole number)`);
  return Number(value);
}

const usage = `Usage: npm run cli -- <command> [options]
       npm run cli -- <command> --help

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(15)}${c.summary}`)
  .join('\n')}

The database is the one the server uses: DATABASE_URL, else PGlite under DATA_DIR.
Long commands show progress on stderr: a bar on a terminal, a line every 10 s otherwise.`;

const helpOf = (command: Command) => `Usage: npm run cli -- ${command.usage}\n\n${command.help}`;

const HELP = new Set(['--help', '-h', 'help']);

async function main(): Promise<number> {
  collectGarbageWhileRunning();
  const [name, ...rest] = process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--'));
  if (name && HELP.has(name)) {
    const about = rest[0] ? commands[rest[0]] : undefined;
    console.log(about ? helpOf(about) : usage);
    return 0;
  }
  const command = name ? (Object.hasOwn(commands, name) ? commands[name] : undefined) : undefined;
  if (!command) {
    console.error(name ? `Unknown command: ${name}\n\n${usage}` : usage);
    return 2;
  }
  if (rest.some((arg) => arg === '--help' || arg === '-h')) {
    console.log(helpOf(command));
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\nUsage: npm run cli -- ${command.usage}`);
      return 2;
    }
    if (error instanceof StoreBehind) {
      console.error(`REFUSED: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : `Failed: ${(error as Error).message ?? error}`);
    process.exit(1);
  },
);
