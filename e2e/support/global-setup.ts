/**
 * Starts the real server once for the whole suite, as an operator would (`node app-server/start.mjs`, which builds
 * the web app and the server bundle when they are stale), on a fresh DATA_DIR and a free port, and tells the journeys
 * where it is through E2E_SERVER (read by fixtures.ts). Returns the teardown that stops it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { freePort } from './free-port.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clockFileIn, serverClockEnv } from './server-clock.ts';
import type { E2eServer } from './server-info.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function waitUntilReady(baseURL: string, exited: () => string | null): Promise<void> {
  const deadline = Date.now() + 180_000; // a first start builds the web app and the server bundle
  while (Date.now() < deadline) {
    const failure = exited();
    if (failure) throw new Error(`the server exited before it was ready: ${failure}`);
    try {
      if ((await fetch(`${baseURL}/api/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server at ${baseURL} was not ready within 3 minutes`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'escrow-e2e-'));
  // E2E_PORT pins the server's port (e.g. to a range a shared machine gives you); else any free one.
  const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const admin = { username: 'e2eadmin', email: 'e2eadmin@example.com', password: `e2e-admin-${Date.now()}` };
  const info: E2eServer = { baseURL, outbox: join(dataDir, 'mail-outbox.jsonl'), dataDir, admin };
  let log = '';
  const child = spawn(process.execPath, ['--expose-gc', 'app-server/start.mjs'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseURL,
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: admin.username,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      // The journeys sign many people up and in from one address within minutes; the limits themselves are tested
      // by the integration suite.
      RATE_LIMIT_REGISTER: '10000',
      RATE_LIMIT_LOGIN: '10000',
      RATE_LIMIT_ESCROWS: '10000',
      MAX_UNPAID_ESCROWS: '10000',
      // Most admin journeys act without 2FA (a code is accepted once per 30 s step); one journey turns it on.
      ADMIN_2FA_REQUIRED: 'false',
      // scrypt at its production cost is half a second a hash on these cores; the journeys hash hundreds of times.
      PASSWORD_HASH_COST: '12',
      // Payment proofs in the journeys come from a chain mined in the test at regtest's difficulty.
      MIN_WORK_BITS: '0x207fffff',
      MIN_CONFIRMATIONS: '1',
      // A deal's events are in a signed checkpoint within seconds, not the minute an operator's server waits.
      CHECKPOINT_INTERVAL_S: '2',
      // The journeys move the server's clock (an inspection period ending) through this file: server-clock.ts.
      ...serverClockEnv(clockFileIn(dataDir)),
    },
  });
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  let exit: string | null = null;
  child.on('exit', (code, signal) => (exit = `exit ${code ?? signal}\n${log.slice(-4000)}`));
  await waitUntilReady(baseURL, () => exit);
  process.env.E2E_SERVER = JSON.stringify(info);
  console.log(`e2e: server at ${baseURL}, data in ${dataDir}`);
  return async () => {
    if (exit === null && child.pid) {
      const stopped = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([stopped, new Promise((r) => setTimeout(r, 15_000))]);
    }
  };
}
