import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(path: string): number {
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

/** True when web/dist is missing or older than any source of the web app (or of the shared domain schemas). */
export function webBuildIsStale(root: string): boolean {
  const built = join(root, 'web', 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const sources = Math.max(newestMtime(join(root, 'web')), newestMtime(join(root, 'domain')));
  return sources > statSync(built).mtimeMs;
}

/** Builds the web app with Vite, printing its output. */
export function buildWeb(root: string): void {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
