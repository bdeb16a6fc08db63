/**
 * Accounts in the browser: registration and the mailed link, the signed-in navigation, the profile (role switch,
 * 2FA, recovery codes, password), sign-in with a code and with a recovery code, logout, and a session that ends
 * under the user's feet. The authenticator app is played by otplib (support/authenticator.ts).
 */
import type { Page } from '@playwright/test';
import {
  call,
  PASSWORD,
  preparePricingAndPool,
  registerVerified,
  signInInBrowser,
  type Person,
} from '../support/api.ts';
import { authenticator } from '../support/authenticator.ts';
import { checkPage, expect, test } from '../support/fixtures.ts';
import { linkIn, waitForMail } from '../support/mail.ts';

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** Sign-in through the form, answering the 2FA question with `code` when it is asked. */
async function signInWithCode(page: Page, person: { username: string; password: string }, code: string) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(person.username);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Please enter your 2FA code')).toBeVisible();
  await checkPage(page, 'the sign-in form asking for a 2FA code');
  await page.getByLabel('2FA code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
}

async function logout(page: Page) {
  await mainNav(page).getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(mainNav(page).getByRole('link', { name: 'Sign in' })).toBeVisible();
}

test.beforeAll(async ({ server }) => preparePricingAndPool(server, { addresses: 2 }));

test('register, confirm the address by the mailed link, sign in and find the signed-in navigation', async ({
  server,
  person,
}) => {
  const page = await person();
  const username = `reg${Date.now().toString(36)}`;
  const email = `${username}@example.com`;

  await test.step('register as a seller', async () => {
    await page.goto('/register');
    await page.getByLabel('Full name').fill('Rita Register');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByLabel(/Sell/).check();
    await checkPage(page, 'the filled registration form');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/login');
  });

  await test.step('open the link in the mail', async () => {
    const mail = await waitForMail(server.outbox, email, 'Confirm your e-mail');
    await page.goto(linkIn(mail, '/verify-email'));
    await expect(page.getByText(/E-mail address confirmed/)).toBeVisible();
    await checkPage(page, 'the e-mail confirmation page');
  });

  await test.step('sign in: Dashboard, Profile and Logout, no Admin; the profile says the address is verified', async () => {
    await signInInBrowser(page, { username, password: PASSWORD });
    await expect(mainNav(page).getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Admin' })).toHaveCount(0);
    await mainNav(page).getByRole('link', { name: 'Profile' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
    await expect(page.getByText('Verified', { exact: true })).toBeVisible();
    await expect(page.getByRole('radio', { name: /Seller \(current\)/ })).toBeChecked();
    await checkPage(page, 'the profile, General tab');
  });
});

test('an admin sees the Admin link; the phone menu opens, and Escape closes it', async ({ server, person }) => {
  const page = await person({ width: 390, height: 844 });
  await signInInBrowser(page, server.admin);
  const toggle = page.getByRole('button', { name: 'Menu' });
  await toggle.click();
  await expect(mainNav(page).getByRole('link', { name: 'Admin' })).toBeVisible();
  await checkPage(page, 'the phone menu, signed in as an admin');
  await page.keyboard.press('Escape');
  await expect(mainNav(page).getByRole('link', { name: 'Admin' })).toBeHidden();
  await expect(toggle).toBeFocused();
  await page.goto('/profile');
  await expect(page.getByText('Admin role cannot be changed')).toBeVisible();
});

test('2FA: enabled in the profile, then needed to sign in (a code, then a recovery code) and to open an escrow', async ({
  server,
  person,
}) => {
  test.setTimeout(180_000); // two codes wait for a fresh 30-second step each
  const buyer = await registerVerified(server, 'buyer');
  const page = await person();
  await signInInBrowser(page, buyer);
  let nextCode: () => Promise<string> = async () => '';
  let recoveryCodes: string[] = [];

  await test.step('set up 2FA: the QR code and the key, verified with a code from the app', async () => {
    await page.goto('/profile?tab=security');
    await page.getByRole('button', { name: 'Set up 2FA' }).click();
    await expect(page.getByRole('img', { name: /QR code/ })).toHaveAttribute('src', /^data:image\/png;base64,/);
    const secret = (await page.locator('.totp-secret code').innerText()).replace(/\s+/g, '');
    nextCode = authenticator(secret);
    await checkPage(page, 'the 2FA setup');
    await page.getByLabel('Code from the app').fill(await nextCode());
    await page.getByRole('button', { name: 'Verify and turn on 2FA' }).click();
  });

  await test.step('the recovery codes are shown once, with copy and download', async () => {
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await expect(list).toBeVisible();
    recoveryCodes = await list.locator('code').allInnerTexts();
    expect(recoveryCodes).toHaveLength(10);
    await expect(page.getByText(/From your next sign-in you will be asked for the code/)).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /Download \.txt/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.txt$/);
    const saved = await download.createReadStream().then(async (stream) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    });
    for (const code of recoveryCodes) expect(saved).toContain(code);
    await checkPage(page, 'the recovery codes');
    await page.getByRole('button', { name: 'I have saved my codes' }).click();
    await expect(list).toHaveCount(0);
    await expect(page.getByText('On', { exact: true })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('list', { name: 'Recovery codes' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Disable 2FA' })).toBeVisible();
  });

  await test.step('opening an escrow without a code is refused in the create form', async () => {
    await page.goto('/dashboard');
    await page.getByRole('button', { name: '+ Create Escrow' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Escrow' });
    await dialog.getByLabel('Product or service').fill('Guitar');
    await dialog.getByLabel("Seller's e-mail").fill('someone@example.com');
    await dialog.getByLabel('Amount in USD').fill('250');
    await dialog.getByLabel('Description and terms').fill('Used, with case.');
    await dialog.getByRole('button', { name: 'Create Escrow' }).click();
    await expect(dialog.getByText('2FA code required to create escrow')).toBeVisible();
    await checkPage(page, 'the create form refusing without a 2FA code');
    // The server refuses it too, whatever a client sends (a fresh API session, signed in with a recovery code).
    const { access_token } = await call<{ access_token: string }>(server, '/auth/login', {
      json: { username: buyer.username, password: buyer.password, totp_code: recoveryCodes[1] },
    });
    const refused = await call<{ code: string }>(server, '/escrows', {
      token: access_token,
      json: {
        product_service: 'Guitar',
        description: 'Used, with case.',
        amount_usd: '250',
        deadline_days: 7,
        seller_email: 'someone@example.com',
      },
      expect: 422,
    });
    expect(refused.code).toBe('totp_required');
    await page.keyboard.press('Escape');
  });

  await test.step('sign in again with the next code from the app', async () => {
    await logout(page);
    await signInWithCode(page, buyer, await nextCode());
  });

  await test.step('and with a recovery code, which then no longer works', async () => {
    await logout(page);
    await signInWithCode(page, buyer, recoveryCodes[0]!);
    await logout(page);
    const again = await call<{ code: string }>(server, '/auth/login', {
      json: { username: buyer.username, password: buyer.password, totp_code: recoveryCodes[0] },
      expect: 401,
    });
    expect(again.code).toBe('totp_invalid');
  });

  await test.step('turn 2FA off with a code', async () => {
    await signInWithCode(page, buyer, recoveryCodes[2]!);
    await page.goto('/profile?tab=security');
    await page.getByLabel('2FA code or recovery code').fill(await nextCode());
    await page.getByRole('button', { name: 'Disable 2FA' }).click();
    await expect(page.getByText(/2FA disabled/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Set up 2FA' })).toBeVisible();
  });
});

test('switch role from buyer to seller, then log out', async ({ server, person }) => {
  const someone: Person = await registerVerified(server, 'buyer');
  const page = await person({ width: 390, height: 844 });
  await signInInBrowser(page, someone);
  await page.goto('/profile');
  const switchButton = page.getByRole('button', { name: 'Switch role' });
  await expect(switchButton).toBeDisabled();
  await page.getByRole('radio', { name: /Seller/ }).check();
  await expect(switchButton).toBeEnabled();
  await switchButton.click();
  await expect(page.getByText('You are now a seller.')).toBeVisible();
  await checkPage(page, 'the profile after a role switch');
  expect((await call<{ role: string }>(server, '/auth/me', { token: someone.token })).role).toBe('seller');
  await page.reload();
  await expect(page.getByRole('radio', { name: /Seller \(current\)/ })).toBeChecked();

  await page.getByRole('button', { name: 'Menu' }).click();
  await mainNav(page).getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.goto('/dashboard');
  await page.waitForURL('**/login');
  await expect(page.getByText(/Your session has ended/)).toHaveCount(0);
});

test('a session revoked elsewhere lands on /login saying so, and signing in returns to the page', async ({
  server,
  person,
}) => {
  const someone = await registerVerified(server, 'seller');
  const page = await person();
  await signInInBrowser(page, someone);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();

  // Changing the password from another session signs every other session out, this browser's included.
  const newPassword = 'a brand new password';
  await call(server, '/auth/change-password', {
    token: someone.token,
    json: { current_password: someone.password, new_password: newPassword },
  });

  await page.getByRole('radio', { name: /Buyer/ }).check();
  await page.getByRole('button', { name: 'Switch role' }).click();
  await page.waitForURL('**/login');
  await expect(page.getByText(/Your session has ended/)).toBeVisible();
  await expect(mainNav(page).getByRole('link', { name: 'Sign in' })).toBeVisible();
  await checkPage(page, 'the sign-in page after the session ended');

  await page.getByLabel('Username').fill(someone.username);
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/profile');
});
