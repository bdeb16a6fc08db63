/**
 * The transparency log as a party and a visitor meet it: the escrow page checks the deal's proof in the browser and
 * hands the same file over; the browser remembers the checkpoint it saw and warns, loudly, when the log was rewritten
 * between two visits (here on a server of the journey's own, whose store is rewritten while it is stopped); the
 * public /transparency page passes axe on a desktop and a phone.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { freePort } from '../support/free-port.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chainHash } from '../../domain/chain.ts';
import { checkProofBundle, type ProofBundle } from '../../domain/transparency/proof.ts';
import { openDatabase } from '../../app-server/db/database.ts';
import { rewriteLogFrom } from '../../app-server/testing/tamper.ts';
import { openDeal } from '../support/admin-data.ts';
import { preparePricingAndPool, signInInBrowser } from '../support/api.ts';
import { checkPage, expect, test } from '../support/fixtures.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('a party checks the escrow’s proof in the browser and downloads it', async ({ person, server }) => {
  await preparePricingAndPool(server);
  const deal = await openDeal(server, 'Proof camera');
  const page = await person();
  await signInInBrowser(page, deal.buyer);
  await page.goto(`/escrow/${deal.id}`);
  const card = page.getByRole('region', { name: 'Proof in the public log' });
  // The next checkpoint covers the new escrow within seconds: until then the page says so, and a reload checks again.
  const checked = card.getByText(/^Checked against checkpoint \d+: \d+ events? of this escrow are in the log/);
  await expect(checked.or(card.getByText(/^No signed checkpoint covers this escrow's events yet/))).toBeVisible({
    timeout: 30_000,
  });
  await expect(async () => {
    if (await checked.isVisible()) return;
    await page.reload();
    await expect(checked).toBeVisible({ timeout: 30_000 });
  }).toPass({ timeout: 120_000 });
  await expect(card.getByText(/This browser now remembers checkpoint \d+|Log consistent/)).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'Download proof' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`escrow-${deal.id}-proof.json`);
  const bundle = JSON.parse(readFileSync((await download.path())!, 'utf8')) as ProofBundle;
  expect(bundle.events.length).toBeGreaterThan(0);
  expect(
    bundle.events.every((e) => (JSON.parse(e.line) as { stream_id: string }).stream_id === `escrow:${deal.id}`),
  ).toBe(true);
  // The downloaded file passes the offline check verify-proof runs.
  expect(checkProofBundle(bundle, { chainHash })).toMatchObject({ ok: true, events: bundle.events.length });
  await checkPage(page, 'the escrow page with its proof');
});

test('the transparency page passes axe on a desktop and on a phone', async ({ person }) => {
  for (const viewport of [undefined, { width: 390, height: 844 }]) {
    const page = await person(viewport);
    await page.goto('/transparency');
    await expect(page.getByRole('heading', { level: 1, name: 'A log anyone can check' })).toBeVisible();
    await expect(page.getByText(/^[0-9a-z.:/-]+\/log\+[0-9a-f]{8}\+/)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Signed checkpoints' }).getByRole('row').nth(1)).toBeVisible();
    await page.getByRole('contentinfo').getByRole('link', { name: 'Transparency log' }).scrollIntoViewIfNeeded();
    await checkPage(page, `/transparency at ${viewport ? viewport.width : 1366} px`);
  }
});

/** The port E2E_PORT gives this test's second server, else any free one. */
const secondPort = async () => (process.env.E2E_PORT ? Number(process.env.E2E_PORT) + 1 : freePort());

/** A server of this journey's own on `dataDir`, signing a checkpoint every second; resolves once one is signed. */
async function startOwnServer(dataDir: string, baseURL: string): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: new URL(baseURL).port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: baseURL,
    LOG_LEVEL: 'warn',
    CHECKPOINT_INTERVAL_S: '1',
  };
  // The embedded store in dataDir: the journey opens it itself while the server is stopped.
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['app-server/start.mjs'], { cwd: root, detached: true, stdio: 'ignore', env });
  await expect(async () => {
    const res = await fetch(`${baseURL}/api/transparency/checkpoint`);
    expect(res.status).toBe(200);
  }).toPass({ timeout: 120_000 });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}

test('a log rewritten between two visits is caught by the browser’s consistency warning', async ({ browser }) => {
  test.setTimeout(300_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'escrow-e2e-tlog-'));
  const baseURL = `http://127.0.0.1:${await secondPort()}`;
  let server = await startOwnServer(dataDir, baseURL);
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    await page.goto('/transparency');
    await expect(page.getByText(/This browser now remembers checkpoint \d+ of the log/)).toBeVisible();
    await page.reload();
    await expect(page.getByText(/^Log consistent: checkpoint \d+ extends checkpoint \d+/)).toBeVisible();

    // The operator stops the server, rewrites the log from its first event with every hash, the chain head and the
    // tree recomputed, deletes the checkpoints and starts again: the server signs the rewritten log afresh.
    await stop(server);
    const store = await openDatabase({ dataDir });
    await rewriteLogFrom(store.db, 1, { tree: true });
    await store.db.deleteFrom('tlog_checkpoints').execute();
    await store.close();
    server = await startOwnServer(dataDir, baseURL);

    await page.goto('/transparency');
    const warning = page.getByRole('alert').filter({ hasText: 'Warning: the log was rewritten' });
    await expect(warning).toBeVisible();
    await expect(warning).toContainText(/the log was rewritten/);
    // It stays on the next visit: the checkpoint the browser saw is kept.
    await page.reload();
    await expect(page.getByRole('alert').filter({ hasText: 'Warning: the log was rewritten' })).toBeVisible();
  } finally {
    await context.close();
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
