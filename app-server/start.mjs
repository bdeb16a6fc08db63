// `npm start`: brings the two builds up to date, then runs the server from its bundle in this process.
// The web app is built with Vite when web/dist is missing or older than web/ or domain/ (the shared schemas).
// The server is bundled with esbuild (dependencies stay in node_modules) so that production runs plain
// JavaScript: no TypeScript loader in memory, a faster start.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = join(root, 'dist', 'server.mjs');

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

/** True when `output` is missing or older than any of `sources` (paths under the root). */
const stale = (output, sources) => !existsSync(output) || Math.max(...sources.map((p) => newestMtime(join(root, p)))) > statSync(output).mtimeMs;

if (stale(join(root, 'web', 'dist', 'index.html'), ['web', 'domain'])) {
  process.stdout.write('Building the web app (web/dist is missing or older than its sources)\n');
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts'], { cwd: root, stdio: 'inherit' });
}
if (stale(bundle, ['app-server', 'domain', 'projections', 'migrations', 'package-lock.json'])) {
  const { build } = await import('esbuild'); // only when there is something to build: a faster start
  await build({
    entryPoints: [join(root, 'app-server', 'main.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
}
await import(pathToFileURL(bundle).href);
