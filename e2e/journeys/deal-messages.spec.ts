/**
 * A dispute where the buyer, the seller and an admin write messages: the conversation panel on the escrow page (the
 * buyer at 1366 px, the seller on a phone at 390 px) and in the console's dispute and escrow views, with a file, the
 * live updates and the mail that tells the other side. The deal itself is set up through the API: it is not what
 * this journey is about.
 */
import type { Locator, Page } from '@playwright/test';
import {
  adminToken,
  call,
  preparePricingAndPool,
  registerVerified,
  signInInBrowser,
  type Person,
} from '../support/api.ts';
import { checkPage, expect as baseExpect, test } from '../support/fixtures.ts';
import { waitForMail } from '../support/mail.ts';
import type { E2eServer } from '../support/server-info.ts';

test.beforeAll(async ({ server }) => preparePricingAndPool(server, { rate: '50000', fee: '1.5', addresses: 2 }));

// Every message is a server round trip and a poll; on a loaded machine those take longer than one expect's default.
const expect = baseExpect.configure({ timeout: 45_000 });
const PHONE = { width: 390, height: 844 };
const screens = `${process.env.E2E_ARTIFACTS ?? 'e2e/.artifacts'}/screens`;

/** A funded escrow the buyer opened with the seller; what the deal's rules ask before funding is done for them. */
async function fundedEscrow(server: E2eServer, buyer: Person, seller: Person): Promise<string> {
  const { id } = await call<{ id: string }>(server, '/escrows', {
    token: buyer.token,
    json: {
      product_service: 'Oak writing desk',
      description: 'Solid oak, collected by courier',
      amount_usd: '450',
      seller_email: seller.email,
    },
    expect: 201,
  });
  const escrow = await call<{ allowed_actions?: string[] }>(server, `/escrows/${id}`, { token: seller.token });
  if (escrow.allowed_actions?.includes('agree'))
    await call(server, `/escrows/${id}/agree`, { token: seller.token, method: 'POST' });
  await call(server, `/escrows/${id}/mark-paid`, { token: buyer.token, form: { notes: 'Sent from my wallet' } });
  await call(server, `/admin/escrows/${id}/verify-payment`, {
    token: await adminToken(server),
    form: { verified: 'true', notes: 'Seen on the chain' },
  });
  return id;
}

const conversation = (page: Page) => page.getByRole('region', { name: 'Messages' });
/** In the console the conversation is part of a card (a dispute, an escrow), not a landmark of its own. */
const embeddedConversation = (within: Page | Locator) => within.getByRole('group', { name: 'Messages' });

async function write(page: Page, text: string, file?: { name: string; mimeType: string; buffer: Buffer }) {
  const panel = conversation(page);
  await panel.getByLabel('Your message').fill(text);
  if (file) await panel.getByLabel('Attach a file (optional)').setInputFiles(file);
  await panel.getByRole('button', { name: 'Send message' }).click();
  await expect(panel.locator('.message-text', { hasText: text })).toBeVisible();
  await expect(panel.getByLabel('Your message')).toHaveValue('');
}

test('a dispute where the buyer, the seller and an admin write messages', async ({ server, person }) => {
  test.setTimeout(600_000); // four people in four browser contexts, each signing in: more than one journey's time
  const buyer = await registerVerified(server, 'buyer');
  const seller = await registerVerified(server, 'seller');
  const id = await fundedEscrow(server, buyer, seller);
  const buyerPage = await person();
  await signInInBrowser(buyerPage, buyer);
  let admin: Page = buyerPage; // the admin's page, once they have signed in

  await test.step('the buyer writes on the escrow page, with a photo of the damage', async () => {
    await buyerPage.goto(`/escrow/${id}`);
    const panel = conversation(buyerPage);
    await expect(panel).toBeVisible();
    await expect(panel.getByText('No messages yet. Write the first one below.')).toBeVisible();
    await panel.getByRole('button', { name: 'Send message' }).click();
    await expect(panel.getByText('Write a message first')).toBeVisible();
    await write(buyerPage, 'The desk arrived with a cracked leg.', {
      name: 'leg.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Front left leg cracked through.\n'),
    });
    await expect(panel.getByRole('button', { name: /leg\.txt/ })).toBeVisible();
    await expect(panel.locator('.message-mine')).toHaveCount(1);
    await checkPage(buyerPage, "the buyer's conversation");
    await buyerPage.screenshot({ path: `${screens}/messages-buyer-1366.png`, fullPage: true });
  });

  await test.step('the seller is mailed, and answers from a phone', async () => {
    const mail = await waitForMail(server.outbox, seller.email, 'New message');
    expect(mail.text).toContain('> The desk arrived with a cracked leg.');
    expect(mail.text).toContain(`/escrow/${id}`);
    await call(server, `/escrows/${id}/open-dispute`, {
      token: buyer.token,
      json: { reason: 'The desk arrived damaged' },
    });
    const sellerPage = await person(PHONE);
    await signInInBrowser(sellerPage, seller);
    await sellerPage.goto(`/escrow/${id}`);
    const panel = conversation(sellerPage);
    await expect(panel.locator('.message-text', { hasText: 'The desk arrived with a cracked leg.' })).toBeVisible();
    await expect(panel.getByText(buyer.username)).toBeVisible();
    await write(sellerPage, 'It left here packed in foam. Was the box dented?');
    const widest = await sellerPage.evaluate(() =>
      [...document.querySelectorAll('main *')]
        .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`)
        .slice(-3),
    );
    expect(widest, 'no sideways scrolling at 390 px').toEqual([]);
    await checkPage(sellerPage, "the seller's conversation at 390 px");
    await sellerPage.screenshot({ path: `${screens}/messages-seller-390.png`, fullPage: true });
  });

  await test.step('the admins are mailed while disputed; an admin answers in the dispute view', async () => {
    const mail = await waitForMail(server.outbox, server.admin.email, 'New message');
    expect(mail.text).toContain('> It left here packed in foam. Was the box dented?');
    expect(mail.text).toContain('/admin?tab=disputes');
    admin = await person();
    await signInInBrowser(admin, server.admin);
    await admin.goto('/admin?tab=disputes');
    const card = admin
      .getByRole('listitem')
      .filter({ has: admin.locator(`a[href="/admin?tab=escrows&escrow=${id}"]`) })
      .first();
    const panel = embeddedConversation(card);
    await expect(panel.locator('.message-text')).toHaveText([
      'The desk arrived with a cracked leg.',
      'It left here packed in foam. Was the box dented?',
    ]);
    await expect(panel.getByText(seller.username)).toBeVisible();
    await panel.getByLabel('Your message').fill('Thank you both. Please post photos of the box.');
    await panel.getByRole('button', { name: 'Send message' }).click();
    await expect(
      panel.locator('.message-text', { hasText: 'Thank you both. Please post photos of the box.' }),
    ).toBeVisible();
    await checkPage(admin, 'the conversation in the dispute view');
    await admin.screenshot({ path: `${screens}/messages-admin-dispute-1366.png`, fullPage: true });
  });

  await test.step("the console's escrow view shows the same conversation, on a phone too", async () => {
    await admin.setViewportSize(PHONE);
    await admin.goto(`/admin?tab=escrows&escrow=${id}`);
    const panel = embeddedConversation(admin);
    await expect(panel.locator('.message-text')).toHaveCount(3);
    await checkPage(admin, "the console's escrow view at 390 px");
    await admin.screenshot({ path: `${screens}/messages-admin-escrow-390.png`, fullPage: true });
  });

  await test.step('the buyer sees the admin\'s words as "Admin"; the mail told of the seller\'s answer', async () => {
    await buyerPage.reload();
    const panel = conversation(buyerPage);
    const fromAdmin = panel.locator('.message-admin');
    await expect(fromAdmin).toContainText('Thank you both. Please post photos of the box.');
    await expect(fromAdmin.locator('.message-meta strong')).toHaveText('Admin');
    await expect(panel.locator('.message-item')).toHaveCount(3);
    const mail = await waitForMail(server.outbox, buyer.email, 'New message');
    expect(mail.text).toContain('> It left here packed in foam. Was the box dented?');
  });
});
