/** The audit side in the console: the audit log filtered and paged, the chain head and check, replay, export, raw events. */
import { readFileSync } from 'node:fs';
import { preparePricingAndPool, signInInBrowser } from '../support/api.ts';
import { shoot } from '../support/admin-data.ts';
import { checkPage, expect, test } from '../support/fixtures.ts';

test('the audit log filters by action (kept in the URL) and pages on the server', async ({ server, person }) => {
  // 55 pool addresses and a rate: more than one page of 50 audit entries, whatever ran before, so the pager shows.
  await preparePricingAndPool(server, { addresses: 55 });
  const page = await person();
  await signInInBrowser(page, server.admin);
  await page.goto('/admin?tab=audit');
  await expect(page.getByRole('table', { name: 'Audit log' })).toBeVisible();
  await checkPage(page, 'audit');
  await shoot(page, 'audit');
  await page.getByLabel('Action').fill('BtcRateSet');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/action_type=BtcRateSet/);
  const actions = page.getByRole('table', { name: 'Audit log' }).locator('tbody tr td[data-label="Action"] strong');
  // Each row tells its event in a sentence; the filter kept only rate changes.
  await expect(actions.first()).toHaveText(/^Set the BTC\/USD rate to \d/);
  for (const text of await actions.allTextContents()) expect(text).toMatch(/^Set the BTC\/USD rate to \d/);
  await page.reload();
  await expect(page.getByLabel('Action')).toHaveValue('BtcRateSet');
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page).not.toHaveURL(/action_type/);
  const pager = page.getByRole('navigation', { name: 'Audit log pages' });
  const rows = page.getByRole('table', { name: 'Audit log' }).locator('tbody tr');
  await expect(pager.getByText('Page 1')).toBeVisible();
  await expect(pager.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await expect(rows).toHaveCount(50);
  const firstRow = await rows.first().textContent();
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(pager.getByText('Page 2')).toBeVisible();
  await expect(rows.first()).not.toHaveText(firstRow!);
  await checkPage(page, 'audit page 2');
  await pager.getByRole('button', { name: 'Previous' }).click();
  await expect(pager.getByText('Page 1')).toBeVisible();
  await expect(rows.first()).toHaveText(firstRow!);
});

test('the ledger: chain head to publish, the server check, replay with its report, the export as a file, events by type', async ({
  server,
  person,
}) => {
  const page = await person();
  await signInInBrowser(page, server.admin);
  await page.goto('/admin?tab=ledger');
  const head = page.locator('.head-line');
  await expect(head).toHaveText(/^\d+:[0-9a-f]{64}$/);
  await expect(page.getByText(/All \d+ events verify/)).toBeVisible();

  await page.getByRole('button', { name: 'Replay the log' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Match: \d+ events replayed/ })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByRole('table', { name: 'Read models compared' })).toContainText('escrows');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download export' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('events.ndjson');
  const lines = readFileSync((await file.path())!, 'utf8')
    .trim()
    .split('\n');
  expect(lines.length).toBeGreaterThan(2);
  expect(JSON.parse(lines.at(-1)!)).toHaveProperty('hash');

  await page.getByLabel('Event type').fill('BtcRateSet');
  await page.getByRole('button', { name: 'Show events' }).click();
  const types = page.getByRole('table', { name: 'Events by position' }).locator('summary strong');
  await expect(types.first()).toHaveText('BtcRateSet');
  expect(new Set(await types.allTextContents())).toEqual(new Set(['BtcRateSet']));
  await types.first().click();
  await expect(page.locator('.event-data').first()).toContainText('rate_cents');
  await checkPage(page, 'ledger');
  await shoot(page, 'ledger');
});
