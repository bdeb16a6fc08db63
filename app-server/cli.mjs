// `npm run cli`: brings the CLI's bundle up to date (see build.mjs), then runs it in this process. Plain JavaScript
// keeps a command's memory ~80 MB lower than the TypeScript sources under tsx, and it starts in under a second.
import { pathToFileURL } from 'node:url';
import { buildBundlesIfStale, cliBundle } from './build.mjs';

await buildBundlesIfStale();
await import(pathToFileURL(cliBundle).href);
