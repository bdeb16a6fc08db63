import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Compilable, CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';
import { parseInt8 } from './int8.ts';
import type { Database } from './schema.ts';

export type Backend = 'postgres' | 'pglite';

export interface DatabaseHandle {
  db: Kysely<Database>;
  backend: Backend;
  /** Where the data lives: the PGlite directory, or the PostgreSQL URL without its password. */
  location: string;
  close: () => Promise<void>;
  /** PGlite only: its whole data directory as one consistent gzipped tarball (`backup`). */
  dumpDataDir?: () => Promise<Blob>;
  /**
   * PGlite only: shuts the engine down cleanly (its files are then complete and still) while this process keeps the
   * data directory's lock, so nothing else opens it; `close` then only releases the lock. The streaming `backup`.
   */
  holdFiles?: () => Promise<string>;
}

export interface DatabaseOptions {
  /** `postgres://…` for PostgreSQL; absent for embedded PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; `memory://` keeps it in memory (tests). */
  dataDir?: string;
  poolSize?: number;
  /**
   * PGlite's buffer cache (PostgreSQL's `shared_buffers`, 128MB unless set). It lives in the engine's memory, which
   * never shrinks: a command that reads the whole log once fills it for nothing (the files stay in the system's page
   * cache). The CLI sets 32MB: a PGlite replay of a million events peaked at 543 MB instead of 656, in the same time.
   */
  pgliteSharedBuffers?: string;
  /** PGlite: the tarball a new store is made from; `npm run build`'s (dist/pglite-store.tar.gz) unless given. */
  pgliteStoreTemplate?: string | null;
}

const INT8_OID = 20;

/** The one place that opens a database: PostgreSQL when a URL is given, PGlite otherwise. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.dataDir ?? './data', options.pgliteSharedBuffers, options.pgliteStoreTemplate);
}

function openPostgres(url: string, poolSize: number): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A client losing its server (database restart, network cut) must not crash the process. Idle ones report to the
  // pool, which replaces them; one checked out (say, inside a transaction between two statements) reports to itself,
  // where nothing listens: its next query fails with the connection error instead (a 503), and the pool drops it.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  pool.on('connect', usePreparedStatements);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, backend: 'postgres', location: redactUrl(url), close: () => db.destroy() };
}

async function openPglite(dataDir: string, sharedBuffers?: string, template?: string | null): Promise<DatabaseHandle> {
  const inMemory = dataDir.startsWith('memory://');
  const location = inMemory ? dataDir : resolve(dataDir, 'pglite');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  // PGlite is one process's: a second process on the same files would lose its writes (see data-dir-lock.ts).
  const lock = inMemory ? null : lockDataDir(resolve(dataDir, 'pglite.lock'));
  if (!inMemory) mkdirSync(location, { recursive: true });
  if (!inMemory && !existsSync(resolve(location, 'PG_VERSION'))) {
    try {
      createPgliteStore(location, template === undefined ? pgliteStoreTemplate() : template);
    } catch (error) {
      lock?.release();
      throw error;
    }
  }
  // Loaded only when used: the embedded engine costs ~45 MB of memory that a server on PostgreSQL does not need.
  const [{ PGlite, types: pgliteTypes }, { PGliteDialect }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('kysely-pglite-dialect'),
  ]);
  try {
    const client = await PGlite.create(inMemory ? undefined : location, {
      parsers: { [pgliteTypes.INT8]: (value: string) => parseInt8(value) },
      ...(sharedBuffers
        ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`] }
        : {}),
    });
    const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
    let engineOpen = true;
    const stopEngine = async () => {
      if (!engineOpen) return;
      engineOpen = false;
      await db.destroy();
    };
    const close = async () => {
      await stopEngine();
      lock?.release();
    };
    const holdFiles = async () => {
      if (inMemory) throw new Error('an in-memory PGlite has no files to hold');
      await stopEngine();
      return location;
    };
    return { db, backend: 'pglite', location, close, dumpDataDir: () => client.dumpDataDir('gzip'), holdFiles };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

/**
 * Creates a new PGlite store in a short-lived child process: from the template `npm run build` made (PGlite's initdb,
 * run once at build time; unpacking it peaks at ~380 MB) or, without one, by initdb itself (~880 MB). Run in this
 * process, initdb leaves the engine holding ~500 MB it never gives back: a server started on a new directory sat at
 * ~840 MB RSS where one reopening the same store sits at ~300 MB. A template that does not open (made by another
 * PGlite) is passed over for initdb.
 */
function createPgliteStore(location: string, template: string | null): void {
  const pglite = JSON.stringify(import.meta.resolve('@electric-sql/pglite'));
  const create = (options: string) =>
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { PGlite } = await import(${pglite}); const db = await PGlite.create(${JSON.stringify(location)}, ${options}); await db.close();`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  if (template) {
    try {
      create(`{ loadDataDir: new Blob([(await import('node:fs')).readFileSync(${JSON.stringify(template)})]) }`);
      return;
    } catch {
      for (const entry of readdirSync(location)) rmSync(resolve(location, entry), { recursive: true, force: true });
    }
  }
  create('{}');
}

/** The template of a new PGlite store (app-server/build.mjs), in `dist/` beside the checkout's package-lock.json. */
function pgliteStoreTemplate(): string | null {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(resolve(dir, 'package-lock.json'))) {
      const template = resolve(dir, 'dist', 'pglite-store.tar.gz');
      return existsSync(template) ? template : null;
    }
    if (dirname(dir) === dir) return null;
  }
}

/** Marks a statement to be prepared once per connection and then only bound and executed (see below). */
export const PREPARE = '/* prepare */';

/**
 * Runs a query built with Kysely as a prepared statement: for reads on every request whose shape depends on the call
 * (a page of reviews with its filters), where PostgreSQL planning the statement again each time cost more than
 * running it. A query of one fixed shape is better declared once with `preparedQuery`.
 */
export async function executePrepared<Row>(db: Kysely<Database>, query: Compilable<Row>): Promise<Row[]> {
  const { sql, parameters } = query.compile();
  return (await db.executeQuery<Row>(CompiledQuery.raw(`${PREPARE} ${sql}`, [...parameters]))).rows;
}

interface CompiledOnce {
  text: string;
  /** Each parameter of the statement: a named value of the call, or a constant of the query. */
  slots: Array<{ param: string } | { value: unknown }>;
}

/**
 * A query of one fixed shape, built with Kysely (its result type inferred) and compiled once per database; each
 * call only binds `params` and runs it as a prepared statement. For the reads every request makes (the session
 * behind a token, one escrow): building and compiling the query each time was a tenth of such a request. `build`
 * must use each param only as a value (never branch on it): it runs once, with stand-ins for the values.
 */
export function preparedQuery<Params extends Record<string, unknown>, Row>(
  build: (db: Kysely<Database>, params: Params) => Compilable<Row>,
) {
  const compiled = new WeakMap<Kysely<Database>, CompiledOnce>();
  return async (db: Kysely<Database>, params: Params): Promise<Row[]> => {
    let once = compiled.get(db);
    if (!once) compiled.set(db, (once = compileOnce(db, build)));
    const values = once.slots.map((slot) => ('param' in slot ? params[slot.param] : slot.value));
    return (await db.executeQuery<Row>(CompiledQuery.raw(once.text, values))).rows;
  };
}

function compileOnce<Params, Row>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>, params: Params) => Compilable<Row>,
): CompiledOnce {
  const standIns = new Map<string, string>();
  const params = new Proxy({} as Record<string, string>, {
    get: (_, name) => {
      const standIn = `\u0000param\u0000${String(name)}`;
      standIns.set(standIn, String(name));
      return standIn;
    },
  }) as Params;
  const { sql, parameters } = build(db, params).compile();
  return {
    text: `${PREPARE} ${sql}`,
    slots: parameters.map((value) =>
      typeof value === 'string' && standIns.has(value) ? { param: standIns.get(value)! } : { value },
    ),
  };
}

/**
 * Statements that start with PREPARE run as named prepared statements (the name derived from the text), so the
 * server parses and plans them once per connection. Used for the few statements every write runs, whose text
 * depends only on the command's kind; planning one cost more than executing it.
 */
function usePreparedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, values?: unknown, callback?: unknown) => {
    if (typeof text === 'string' && text.startsWith(PREPARE) && Array.isArray(values)) {
      if (callback !== undefined) return query({ name: statementName(text), text, values }, callback);
      // A query made from the text and named afterwards: given a config object instead, the driver copies it (every
      // property descriptor) on each call, which cost a signed-in request's session lookup 2% of its CPU.
      return new Promise((resolve, reject) => {
        const named = new pg.Query(text, values, (error: Error | undefined, result: unknown) =>
          error ? reject(error) : resolve(result),
        );
        (named as { name?: string }).name = statementName(text);
        query(named);
      });
    }
    return query(text, values, callback);
  };
}

const statementNames = new Map<string, string>();

/** The prepared statement's name, derived from its text (remembered: the texts are a few hundred constants). */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `p${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    if (statementNames.size < 2_000) statementNames.set(text, name);
  }
  return name;
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparseable url)';
  }
}
