// `npm start`: brings the two builds up to date (see build.mjs), then runs the server from its bundle in this process.
import { pathToFileURL } from 'node:url';
import { buildIfStale, bundle } from './build.mjs';

await buildIfStale();
await import(pathToFileURL(bundle).href);
