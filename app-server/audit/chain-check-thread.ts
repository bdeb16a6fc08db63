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

const workerModule = new URL('./chain-check.worker.ts', import.meta.url).href;
const tsxLoader = import.meta.resolve('tsx/esm/api');

/**
 * Starts the chain check of an export file on a worker thread. verify-export runs from TypeScript sources (the CLI
 * under tsx, the tests), so the worker first registers tsx's loader, which its entry point cannot do for itself.
 */
export function startChainCheck(path: string): ChainCheck {
  const boot = `import(${JSON.stringify(tsxLoader)}).then(({ register }) => { register(); return import(${JSON.stringify(workerModule)}); })`;
  const worker = new Worker(boot, { eval: true, workerData: { path } });
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
