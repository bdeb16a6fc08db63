import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { dependencies: Record<string, string> };
/** Needed at run time without being imported by the server or the CLI. */
const RUN_TIME_TOOLS: Record<string, string> = {
  esbuild: '`npm start` and `npm run cli` bundle the server and the CLI when a bundle is stale',
  'swagger-ui-dist': '/api/docs serves its files (found with require.resolve, not imported)',
};

/** The packages the server and the CLI import, as esbuild resolves them from their entry points. */
async function importedPackages(): Promise<string[]> {
  const result = await build({
    entryPoints: [`${root}app-server/main.ts`, `${root}app-server/cli/main.ts`],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    write: false,
    metafile: true,
    outdir: `${root}dist/deps-check`,
    logLevel: 'silent',
  });
  const names = new Set<string>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const { path, external } of output.imports) {
      if (external && !path.startsWith('node:')) names.add(/^(@[^/]+\/[^/]+|[^/]+)/.exec(path)![1]!);
    }
  }
  return [...names].sort();
}

describe('dependencies', () => {
  it('are what the server and the CLI need, nothing for the browser only (the image installs them alone)', async () => {
    const imported = await importedPackages();
    const declared = Object.keys(pkg.dependencies).sort();
    expect(imported.filter((name) => !declared.includes(name))).toEqual([]);
    expect(declared.filter((name) => !imported.includes(name) && !(name in RUN_TIME_TOOLS))).toEqual([]);
  }, 60_000);
});
