// Brings the builds up to date: the web app (Vite) when web/dist is missing or older than web/ or domain/ (the
// shared schemas), and the bundles of the server and the CLI (esbuild, with most dependencies inside) so that
// production runs plain JavaScript: no TypeScript loader in memory (~80 MB of a CLI command's RSS), a faster start.
// `npm start` and `npm run cli` run it first; `npm run build` alone, which also makes the template a new PGlite store
// is created from (buildPgliteStoreTemplateIfStale).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const bundle = join(root, 'dist', 'server.mjs');
export const cliBundle = join(root, 'dist', 'cli.mjs');
/** A new PGlite store's files, as PGlite's initdb made them (app-server/db/database.ts reads it by this path). */
export const pgliteStoreTemplate = join(root, 'dist', 'pglite-store.tar.gz');
/** verify-export's chain check runs on a worker thread: its entry point is a bundle of its own beside the CLI's. */
const entryPoints = {
  server: join(root, 'app-server', 'main.ts'),
  cli: join(root, 'app-server', 'cli', 'main.ts'),
  'chain-check.worker': join(root, 'app-server', 'audit', 'chain-check.worker.ts'),
};

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** Each source tree's newest change, walked once per process: a start checks four outputs against them. */
const newestBySource = new Map();
const newestOf = (source) => {
  if (!newestBySource.has(source)) newestBySource.set(source, newestMtime(join(root, source)));
  return newestBySource.get(source);
};

/** True when `output` is missing or older than any of `sources` (paths under the root). */
const stale = (output, sources) => !existsSync(output) || Math.max(...sources.map(newestOf)) > statSync(output).mtimeMs;

export async function buildIfStale() {
  if (stale(join(root, 'web', 'dist', 'index.html'), ['web', 'domain', 'contract'])) {
    process.stdout.write('Building the web app (web/dist is missing or older than its sources)\n');
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts'],
      { cwd: root, stdio: 'inherit' },
    );
  }
  await buildBundlesIfStale();
}

/**
 * PGlite's initdb (WebAssembly) peaks at ~880 MB, where opening a store takes ~300 MB: the build runs it once, in a
 * child process, and keeps the new store as a tarball that the server and the CLI unpack into an empty DATA_DIR
 * (~380 MB). Remade when the installed packages change (a new PGlite may need new files). Only `npm run build` (the
 * image's build) makes it: a server on PostgreSQL never needs it, and without it a new store runs initdb itself.
 */
export function buildPgliteStoreTemplateIfStale() {
  if (!stale(pgliteStoreTemplate, ['package-lock.json'])) return;
  mkdirSync(dirname(pgliteStoreTemplate), { recursive: true });
  const aside = `${pgliteStoreTemplate}.${process.pid}`;
  const script = [
    `const { PGlite } = await import('@electric-sql/pglite');`, // from the root's node_modules: cwd is the root
    `const { writeFileSync } = await import('node:fs');`,
    `const db = await PGlite.create();`,
    `const dump = await db.dumpDataDir('gzip');`,
    `writeFileSync(${JSON.stringify(aside)}, Buffer.from(await dump.arrayBuffer()));`,
    `await db.close();`,
  ].join(' ');
  execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  renameSync(aside, pgliteStoreTemplate);
}

/**
 * Packages that find their own files or workers at run time, and the build's tools: never bundled. PGlite loads its
 * WebAssembly and data files beside itself, pino's transports load pino by name in a worker thread, and /api/docs
 * serves swagger-ui-dist's files.
 */
const LOADED_BY_PATH = [
  '@electric-sql/pglite',
  'pino',
  'pino-pretty',
  'thread-stream',
  'swagger-ui-dist',
  'esbuild',
  'vite',
];
/**
 * Packages imported on first use only, so a start does not load them: an upload's file type, a PGP key, a QR code,
 * and the native driver `pg` looks for and does without.
 */
const LOADED_WHEN_NEEDED = ['file-type', 'openpgp', 'qrcode', 'pg-native'];

/** The server's and the CLI's bundles, when one is missing or older than the sources. */
export async function buildBundlesIfStale() {
  const sources = [
    'app-server',
    'domain',
    'projections',
    'migrations',
    'contract',
    'package.json',
    'package-lock.json',
  ];
  if (!Object.keys(entryPoints).some((name) => stale(join(root, 'dist', `${name}.mjs`), sources))) return;
  const { build } = await import('esbuild'); // only when there is something to build: a faster start
  // Built aside and renamed into place, so a process starting meanwhile reads an old bundle or a new one, never half.
  const aside = join(root, 'dist', `.build-${process.pid}`);
  await build({
    entryPoints,
    outdir: aside,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Dependencies are bundled too: resolving and loading their files one by one took a fifth of a start (0.18 s of
    // 1.06 s on a million events in PGlite). What stays outside is listed above.
    external: [...LOADED_BY_PATH, ...LOADED_WHEN_NEEDED],
    // Bundled CommonJS packages require Node's built-in modules: an ES module has no `require` of its own.
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  for (const name of Object.keys(entryPoints))
    renameSync(join(aside, `${name}.mjs`), join(root, 'dist', `${name}.mjs`));
  rmSync(aside, { recursive: true, force: true });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildIfStale();
  buildPgliteStoreTemplateIfStale();
}
