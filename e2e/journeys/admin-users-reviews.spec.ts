/** An admin manages accounts (edit, suspend, unsuspend, reset a password, delete) and moderates reviews, in the spec's words. */
import { call, preparePricingAndPool, registerVerified, signIn, signInInBrowser } from '../support/api.ts';
import { openDeal, shoot, submitReview } from '../support/admin-data.ts';
import { checkPage, expect, test } from '../support/fixtures.ts';

test('edit, suspend (a reason is asked; cancel changes nothing), unsuspend, reset the password, delete', async ({
  server,
  person,
}) => {
  await preparePricingAndPool(server, { addresses: 1 }); // this file runs on its own too
  const user = await registerVerified(server, 'buyer');
  const busy = (await openDeal(server, `Busy ${Date.now()}`)).buyer;
  const page = await person();
  await signInInBrowser(page, server.admin);
  await page.goto('/admin?tab=users');
  await page.getByLabel('Search users').fill(user.username);
  const row = page.getByRole('row').filter({ hasText: user.username });
  await expect(row).toHaveCount(1);
  await checkPage(page, 'users');
  await shoot(page, 'users');

  await row.getByRole('button', { name: `Edit ${user.username}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit user' });
  await edit.getByLabel('Full Name').fill('Carol Renamed');
  await edit.getByLabel('Role').selectOption('seller');
  await checkPage(page, 'edit user dialog');
  await shoot(page, 'edit-user-dialog');
  await edit.getByRole('button', { name: 'Update User' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'User updated successfully' })).toBeVisible();
  await expect(row).toContainText('Carol Renamed');
  await expect(row.locator('.badge-role-seller')).toHaveText('seller');

  await row.getByRole('button', { name: `Suspend ${user.username}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(row.getByText('SUSPENDED')).toHaveCount(0);
  await expect(row.getByRole('button', { name: `Suspend ${user.username}` })).toBeFocused();
  await row.getByRole('button', { name: `Suspend ${user.username}` }).click();
  const suspend = page.getByRole('dialog', { name: /Suspend/ });
  await suspend.getByRole('button', { name: 'Suspend' }).click();
  await expect(suspend.getByRole('alert')).toHaveText('Please provide a reason for the suspension');
  await suspend.getByLabel('Reason').fill('Chargeback fraud');
  await suspend.getByRole('button', { name: 'Suspend' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'User suspended' })).toBeVisible();
  await expect(row).toContainText('SUSPENDED');
  await expect(row).toContainText('Reason: Chargeback fraud');
  await row.getByRole('button', { name: `Unsuspend ${user.username}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Unsuspend' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'User unsuspended' })).toBeVisible();

  await row.getByRole('button', { name: `Reset the password of ${user.username}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reset password' }).click();
  const shown = page.getByRole('dialog', { name: 'Temporary password' });
  const temporary = (await shown.locator('.temp-password').textContent())!.trim();
  expect(temporary).toMatch(/^[A-Za-z0-9]{16}$/);
  await checkPage(page, 'temporary password');
  await shown.getByRole('button', { name: 'Done' }).click();
  await signIn(server, user.username, temporary);

  await page.getByLabel('Search users').fill(busy.username);
  await page
    .getByRole('row')
    .filter({ hasText: busy.username })
    .getByRole('button', { name: `Delete ${busy.username}` })
    .click();
  const refuse = page.getByRole('dialog', { name: /Delete/ });
  await expect(refuse).toContainText('This action cannot be undone.');
  await refuse.getByRole('button', { name: 'Delete user' }).click();
  await expect(refuse.getByRole('alert')).not.toBeEmpty();
  await shoot(page, 'delete-user-refused');
  await refuse.getByRole('button', { name: 'Cancel' }).click();
  await page.getByLabel('Search users').fill(user.username);
  await row.getByRole('button', { name: `Delete ${user.username}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete user' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'User deleted successfully' })).toBeVisible();
  await expect(page.getByText(`No user matches “${user.username}”.`)).toBeVisible();
});

test('moderate reviews: approve, edit & approve, reject (a reason is required), reopen, delete', async ({
  server,
  person,
}) => {
  const stamp = Date.now();
  await submitReview(server, `Ann ${stamp}`, 'Quick and fair.');
  await submitReview(server, `Ben ${stamp}`, 'Good, slow payout tho');
  await submitReview(server, `Cat ${stamp}`, 'Spam spam spam');
  const page = await person();
  await signInInBrowser(page, server.admin);
  await page.goto('/admin?tab=reviews');
  await expect(page.getByRole('heading', { name: /^Pending Reviews \(\d+\)$/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^All Reviews \(\d+\)$/ })).toBeVisible();
  const pending = page.getByRole('region', { name: /^Pending Reviews/ });
  await checkPage(page, 'reviews');
  await shoot(page, 'reviews');

  await pending
    .getByRole('listitem')
    .filter({ hasText: `Ann ${stamp}` })
    .getByRole('button', { name: 'Approve', exact: true })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Review approved' })).toBeVisible();

  await pending
    .getByRole('listitem')
    .filter({ hasText: `Ben ${stamp}` })
    .getByRole('button', { name: 'Edit & Approve' })
    .click();
  const edit = page.getByRole('dialog', { name: 'Edit & Approve' });
  await edit.getByLabel('Edited Text').fill('Good, the payout was slow.');
  await edit.getByLabel('Admin Note').fill('Fixed the spelling');
  await checkPage(page, 'edit review dialog');
  await shoot(page, 'edit-review-dialog');
  await edit.getByRole('button', { name: 'Save & Approve' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Review edited and approved' })).toBeVisible();

  await pending
    .getByRole('listitem')
    .filter({ hasText: `Cat ${stamp}` })
    .getByRole('button', { name: 'Reject' })
    .click();
  const reject = page.getByRole('dialog', { name: 'Reject this review?' });
  await reject.getByRole('button', { name: 'Reject' }).click();
  await expect(reject.getByRole('alert')).toHaveText('Please provide a rejection reason');
  await reject.getByLabel('Rejection reason').fill('Spam');
  await reject.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Review rejected' })).toBeVisible();

  const all = page.getByRole('region', { name: /^All Reviews/ });
  const rejected = all.getByRole('listitem').filter({ hasText: `Cat ${stamp}` });
  await expect(rejected).toContainText('Rejection reason: Spam');
  await expect(all.getByRole('listitem').filter({ hasText: `Ben ${stamp}` })).toContainText(
    'Admin note: Fixed the spelling',
  );
  await rejected.getByRole('button', { name: 'Reopen' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Review reopened' })).toBeVisible();
  await expect(pending.getByRole('listitem').filter({ hasText: `Cat ${stamp}` })).toBeVisible();

  await all.getByRole('button', { name: `Delete the review by Cat ${stamp}` }).click();
  const remove = page.getByRole('dialog', { name: 'Delete review' });
  await expect(remove).toContainText('Delete this review permanently? This action cannot be undone.');
  await checkPage(page, 'delete review dialog');
  await remove.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Review deleted' })).toBeVisible();
  await expect(page.getByText(`Cat ${stamp}`)).toHaveCount(0);
  // The public page shows the edited one.
  const published = await call<{ name: string; text: string }[]>(server, '/reviews?limit=100');
  expect(published.find((r) => r.name === `Ben ${stamp}`)?.text).toBe('Good, the payout was slow.');
});
