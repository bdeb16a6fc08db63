// `npm start`: brings the builds up to date, then runs the server from its bundle in this process.
// The server is bundled with esbuild (dependencies stay in node_modules) so that production runs plain
// JavaScript: no TypeScript loader in memory, a faster start. The web app is rebuilt by the server itself
// when web/ is newer than web/dist.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import { build } from 'esbuild';

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

const sources = ['app-server', 'domain', 'projections', 'migrations', 'package-lock.json'].map((p) => newestMtime(join(root, p)));
if (!existsSync(bundle) || Math.max(...sources) > statSync(bundle).mtimeMs) {
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
