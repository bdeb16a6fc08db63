/**
 * The admin's part of a deal, done in the admin console by an admin in a browser context of their own (the suite's
 * server runs with ADMIN_2FA_REQUIRED=false, so no code is asked).
 */
import type { Page } from '@playwright/test';
import { signInInBrowser } from './api.ts';
import { checkPage, expect } from './fixtures.ts';
import type { E2eServer } from './server-info.ts';

type NewPerson = (viewport?: { width: number; height: number }) => Promise<Page>;

export function adminConsole(server: E2eServer, person: NewPerson) {
  let signedIn: Promise<Page> | undefined;
  const page = () =>
    (signedIn ??= (async () => {
      const admin = await person();
      await signInInBrowser(admin, server.admin);
      return admin;
    })());
  const escrowLink = (admin: Page, escrowId: string) =>
    admin.locator(`a[href="/admin?tab=escrows&escrow=${escrowId}"]`);
  const notice = (admin: Page, text: string) =>
    expect(admin.getByRole('status').filter({ hasText: text })).toBeVisible();

  return {
    /** Verifications tab: verify (with notes and an optional txid) or reject (with the reason) the escrow's marked payment. */
    async verifyPayment(
      escrowId: string,
      { verified, notes, txid }: { verified: boolean; notes: string; txid?: string },
    ) {
      const admin = await page();
      await admin.goto('/admin?tab=verifications');
      const card = admin.getByRole('listitem').filter({ has: escrowLink(admin, escrowId) });
      await card.getByRole('button', { name: verified ? 'Verify' : 'Reject' }).click();
      const dialog = admin.getByRole('dialog', { name: verified ? 'Verify this payment?' : 'Reject this payment?' });
      await dialog.getByLabel(verified ? 'Notes' : 'Reason (sent to the buyer)').fill(notes);
      if (txid) await dialog.getByLabel('Transaction id (optional)').fill(txid);
      await checkPage(admin, 'the verification dialog');
      await dialog.getByRole('button', { name: verified ? 'Verify payment' : 'Reject payment' }).click();
      await notice(admin, verified ? 'Payment verified' : 'Payment rejected');
    },

    /** The escrow's page in the console: release, after checking the dialog shows the payout address it will send. */
    async release(
      escrowId: string,
      { notes, txid, expectedAddress }: { notes: string; txid?: string; expectedAddress: string },
    ) {
      const admin = await page();
      await admin.goto(`/admin?tab=escrows&escrow=${escrowId}`);
      await admin.getByRole('button', { name: 'Release' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Release the funds to the seller?' });
      await expect(dialog).toContainText(expectedAddress);
      await dialog.getByLabel('Notes').fill(notes);
      if (txid) await dialog.getByLabel('Transaction id (optional)').fill(txid);
      await dialog.getByRole('button', { name: 'Release funds' }).click();
      await notice(admin, 'Escrow released');
    },

    /** Disputes tab: the escrow's dispute as the admins see it (status and reason). */
    async dispute(escrowId: string) {
      const admin = await page();
      await admin.goto('/admin?tab=disputes');
      const card = admin
        .getByRole('listitem')
        .filter({ has: escrowLink(admin, escrowId) })
        .first();
      await expect(card).toBeVisible();
      await checkPage(admin, 'the disputes tab');
      return {
        status: (await card.locator('.verification-head .badge').textContent())?.trim(),
        reason: (
          await card.locator('xpath=.//dt[normalize-space()="Reason"]/following-sibling::dd[1]').textContent()
        )?.trim(),
      };
    },
  };
}
