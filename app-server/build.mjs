// Brings the two builds up to date: the web app (Vite) when web/dist is missing or older than web/ or domain/ (the
// shared schemas), and the server's bundle (esbuild; dependencies stay in node_modules) so that production runs
// plain JavaScript: no TypeScript loader in memory, a faster start. `npm start` runs it first; `npm run build` alone.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const bundle = join(root, 'dist', 'server.mjs');

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
const stale = (output, sources) =>
  !existsSync(output) || Math.max(...sources.map((p) => newestMtime(join(root, p)))) > statSync(output).mtimeMs;

export async function buildIfStale() {
  if (stale(join(root, 'web', 'dist', 'index.html'), ['web', 'domain', 'contract'])) {
    process.stdout.write('Building the web app (web/dist is missing or older than its sources)\n');
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts'],
      { cwd: root, stdio: 'inherit' },
    );
  }
  if (
    stale(bundle, [
      'app-server',
      'domain',
      'projections',
      'migrations',
      'contract',
      'package.json',
      'package-lock.json',
    ])
  ) {
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
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildIfStale();
