import { Worker } from 'node:worker_threads';

export interface ChainCheckResult {
  /** Events whose hash and link were checked. */
  count: number;
  head: { position: number; hash: string };
  /** The first line whose event breaks the chain (or is not JSON). */
  broken?: { line: number; reason: string };
}

export interface ChainCheck {
  result: Promise<ChainCheckResult>;
  /** Asks for the verdict on the lines before `line` only (the main thread found that line bad). */
  stopBefore: (line: number) => void;
  terminate: () => Promise<unknown>;
}

/** From the TypeScript sources (tests, tsx) the worker is `chain-check.worker.ts`; from the CLI's bundle, its own. */
const fromSources = import.meta.url.endsWith('.ts');
const workerModule = new URL(fromSources ? './chain-check.worker.ts' : './chain-check.worker.mjs', import.meta.url);

/**
 * The worker reads and parses ~700 bytes per event, a million times: nearly all of it dies at once. A young
 * generation of 96 MB (semi-spaces of 32 MB, not V8's 16) lets it die there instead of being copied by ever more
 * scavenges; on a million-event export the worker spent a third of the collector's time it had before.
 */
const resourceLimits = { maxYoungGenerationSizeMb: 96 };

/**
 * Starts the chain check of an export file on a worker thread. Run from the TypeScript sources, the worker first
 * registers tsx's loader, which its entry point cannot do for itself.
 */
export function startChainCheck(path: string): ChainCheck {
  const worker = fromSources
    ? new Worker(
        `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(workerModule.href)}); })`,
        { eval: true, workerData: { path }, resourceLimits },
      )
    : new Worker(workerModule, { workerData: { path }, resourceLimits });
  const result = new Promise<ChainCheckResult>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the chain check stopped (exit ${code}) before it answered`)));
  });
  result.catch(() => undefined); // awaited by the caller unless it failed first; never an unhandled rejection
  return {
    result,
    stopBefore: (line) => worker.postMessage({ stopBefore: line }),
    terminate: () => worker.terminate(),
  };
}
