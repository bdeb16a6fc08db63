/**
 * The 2FA screens by keyboard, at a laptop's and a phone's width, with axe on each state: the first admin's set-up
 * on a server of the journey's own (a fresh store, so its one-time /setup link works) from the introduction to the
 * recovery codes, and the profile's New recovery codes dialog (an empty code, a wrong one, Escape and focus back,
 * then the new codes). The refusals are the spec's words.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { registerVerified, signInInBrowser } from '../support/api.ts';
import { authenticator, wrongCode } from '../support/authenticator.ts';
import { checkAtBothSizes } from '../support/both-sizes.ts';
import { expect, test, watch } from '../support/fixtures.ts';
import { freePort } from '../support/free-port.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Presses Tab until `target` has focus (at most 40 times): the page is walked as a keyboard user walks it. */
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 40; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}
const button = (page: Page, name: string) => page.getByRole('button', { name });

/** The secret the steps show, without the spaces that group it. */
const shownSecret = async (page: Page) => (await page.locator('.totp-secret code').innerText()).replace(/\s+/g, '');

test('the first admin’s set-up: 2FA from the introduction to the recovery codes, by keyboard', async ({ browser }) => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'escrow-e2e-setup-'));
  const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ? Number(process.env.E2E_PORT) + 2 : await freePort()}`;
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PUBLIC_URL: baseURL, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  // The link a fresh server's terminal shows, asked of the CLI before the server holds the store.
  const cli = spawnSync(process.execPath, ['--import', 'tsx', 'app-server/cli/main.ts', 'setup-link'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  const link = /https?:\/\/\S+\/setup\?token=\S+/.exec(cli.stdout)?.[0];
  expect(link, `setup-link printed ${cli.stdout} ${cli.stderr}`).toBeTruthy();
  const server: ChildProcess = spawn(process.execPath, ['app-server/start.mjs'], {
    cwd: root,
    detached: true,
    stdio: 'ignore',
    env: { ...env, PORT: new URL(baseURL).port, HOST: '127.0.0.1', ADMIN_2FA_REQUIRED: 'true' },
  });
  const context = await browser.newContext({ baseURL });
  try {
    await expect(async () => expect((await fetch(`${baseURL}/api/ready`)).status).toBe(200)).toPass({
      timeout: 120_000,
    });
    const page = await context.newPage();
    watch(page, baseURL);
    await page.goto(link!);
    await page.getByLabel('Full name').fill('Owner Admin');
    await page.getByLabel('Username').fill('owner');
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password', { exact: true }).fill('a long admin password 1');
    await page.getByLabel('Confirm password').fill('a long admin password 1');
    await page.keyboard.press('Enter');

    await test.step('the introduction: required here, with the way to put it off', async () => {
      const heading = page.getByRole('heading', { name: 'Protect the admin account with 2FA' });
      await expect(heading).toBeFocused(); // the account form is gone: the step starts where focus is
      await expect(page.getByText('Required on this server')).toBeVisible();
      await checkAtBothSizes(page, 'setup-2fa-introduction');
    });

    await test.step('the steps: the QR code, the key, and the code asked for', async () => {
      await tabTo(page, button(page, 'Set up 2FA now'));
      await page.keyboard.press('Enter');
      await expect(page.getByRole('img', { name: /QR code/ })).toHaveAttribute('src', /^data:image\/png;base64,/);
      await expect(page.getByRole('heading', { name: 'Protect the admin account with 2FA' })).toBeFocused();
      await checkAtBothSizes(page, 'setup-2fa-steps');
    });

    const secret = await shownSecret(page);
    const nextCode = authenticator(secret);
    await test.step('an empty code and a wrong one are refused in words', async () => {
      await tabTo(page, button(page, 'Verify and turn on 2FA'));
      await page.keyboard.press('Enter');
      await expect(page.getByText('Enter the code from your authenticator app')).toBeVisible();
      await page.getByLabel('Code from the app').fill(wrongCode(secret));
      await page.keyboard.press('Enter');
      await expect(page.getByText('Invalid 2FA code')).toBeVisible();
      await checkAtBothSizes(page, 'setup-2fa-refused');
    });

    await test.step('the right code: the recovery codes, shown once, then the next step', async () => {
      await page.getByLabel('Code from the app').fill(await nextCode());
      await page.keyboard.press('Enter');
      const list = page.getByRole('list', { name: 'Recovery codes' });
      await expect(list.locator('code')).toHaveCount(10);
      await expect(page.getByRole('heading', { name: 'Your recovery codes' })).toBeFocused();
      await checkAtBothSizes(page, 'setup-2fa-recovery-codes');
      await tabTo(page, button(page, 'I have saved my codes'));
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Next: make the service ready for deals' })).toBeFocused();
      await expect(page.getByText('Step 3 of 3: rate and addresses')).toBeVisible();
    });
  } finally {
    await context.close();
    if (server.pid && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      process.kill(-server.pid, 'SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('new recovery codes in the profile: an empty and a wrong code, Escape and focus back, then the codes', async ({
  server,
  person,
}) => {
  test.setTimeout(180_000); // the dialog's code waits for a fresh 30-second step
  const buyer = await registerVerified(server, 'buyer');
  const page = await person();
  await signInInBrowser(page, buyer);
  await page.goto('/profile?tab=security');
  await page.getByRole('button', { name: 'Set up 2FA' }).click();
  const secret = await shownSecret(page);
  const nextCode = authenticator(secret);
  await page.getByLabel('Code from the app').fill(await nextCode());
  await page.getByRole('button', { name: 'Verify and turn on 2FA' }).click();
  await page.getByRole('button', { name: 'I have saved my codes' }).click();
  await expect(page.getByText('10 recovery codes left')).toBeVisible();

  const opener = page.getByRole('button', { name: 'New recovery codes' });
  const dialog = page.getByRole('dialog', { name: 'New recovery codes' });
  await test.step('opened by keyboard, refused empty and wrong, closed by Escape with focus back', async () => {
    await tabTo(page, button(page, 'New recovery codes'));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    // Focus moves into the dialog (its Close button first, as in every dialog of the app).
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
    await checkAtBothSizes(page, 'profile-new-recovery-codes');
    await tabTo(page, dialog.getByLabel('Code from the app'));
    await page.keyboard.press('Enter');
    await expect(dialog.getByText('Enter the code from your authenticator app')).toBeVisible();
    await dialog.getByLabel('Code from the app').fill(wrongCode(secret));
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('alert')).toHaveText('Invalid 2FA code');
    await checkAtBothSizes(page, 'profile-new-recovery-codes-refused');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();
  });

  await test.step('opened again it starts empty; the right code shows the new codes; done gives focus back', async () => {
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Code from the app')).toHaveValue('');
    await expect(dialog.getByText('Enter the code from your authenticator app')).toHaveCount(0);
    await expect(dialog.getByRole('alert')).toHaveCount(0);
    await dialog.getByLabel('Code from the app').fill(await nextCode());
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('list', { name: 'Recovery codes' }).locator('code')).toHaveCount(10);
    await expect(dialog.getByText('New recovery codes made. The old ones no longer work.')).toBeVisible();
    await checkAtBothSizes(page, 'profile-new-recovery-codes-made');
    await tabTo(page, button(page, 'I have saved my codes'));
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();
  });
});
