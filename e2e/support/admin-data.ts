/**
 * The store the admin journeys act on, filled through the API as buyers and sellers would fill it: escrows at each
 * step (marked with an evidence image, funded with payout addresses, disputed), reviews to moderate.
 */
import type { Page } from '@playwright/test';
import { freshAddress } from '../../app-server/testing/bitcoin.ts';
import { adminToken, call, type Person, registerVerified } from './api.ts';
import type { E2eServer } from './server-info.ts';

/** A 1x1 PNG: a real image the console must preview in the page. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export interface Deal {
  id: string;
  buyer: Person;
  seller: Person;
  payoutAddress: string;
  refundAddress: string;
}

/** A buyer-opened escrow between two fresh people (the buyer gets a pool address at once). */
export async function openDeal(server: E2eServer, product = 'Camera', amountUsd = 500): Promise<Deal> {
  const buyer = await registerVerified(server, 'buyer');
  const seller = await registerVerified(server, 'seller');
  const escrow = await call<{ id: string }>(server, '/escrows', {
    token: buyer.token,
    json: {
      product_service: product,
      description: `${product} for an admin journey`,
      amount_usd: amountUsd,
      deadline_days: 7,
      seller_email: seller.email,
    },
    expect: 201,
  });
  return { id: escrow.id, buyer, seller, payoutAddress: freshAddress(), refundAddress: freshAddress() };
}

/** The buyer marks the payment with notes and an image. */
export async function markPaid(server: E2eServer, deal: Deal, notes = 'Sent from my wallet'): Promise<void> {
  const form = new FormData();
  form.set('notes', notes);
  form.set('file', new File([PNG], 'receipt.png', { type: 'image/png' }));
  await call(server, `/escrows/${deal.id}/mark-paid`, { token: deal.buyer.token, form });
}

/** Both sides give the addresses money may go to. */
export async function setAddresses(server: E2eServer, deal: Deal): Promise<void> {
  await call(server, `/escrows/${deal.id}/payout-address`, {
    token: deal.seller.token,
    json: { address: deal.payoutAddress },
  });
  await call(server, `/escrows/${deal.id}/payout-address`, {
    token: deal.buyer.token,
    json: { address: deal.refundAddress },
  });
}

/** Marked, verified by the admin through the API, both addresses set: ready to release, refund or dispute. */
export async function fundedDeal(server: E2eServer, product: string, amountUsd = 500): Promise<Deal> {
  const deal = await openDeal(server, product, amountUsd);
  await markPaid(server, deal);
  await call(server, `/admin/escrows/${deal.id}/verify-payment`, {
    token: await adminToken(server),
    form: { verified: 'true', notes: 'seen on chain' },
  });
  await setAddresses(server, deal);
  return deal;
}

export async function openDispute(server: E2eServer, deal: Deal, reason = 'The camera arrived broken'): Promise<void> {
  await call(server, `/escrows/${deal.id}/open-dispute`, { token: deal.buyer.token, json: { reason } });
}

/** A review waiting for moderation. */
export async function submitReview(server: E2eServer, name: string, text: string): Promise<void> {
  await call(server, '/reviews', {
    json: { name, email: null, country: 'Germany', rating: 4.5, text, escrow_id: null, terms_accepted: true },
    expect: 201,
  });
}

/**
 * Screenshots of what a journey shows, kept with the suite's artefacts to be looked at: the whole page, or with
 * `{ fullPage: false }` only the screen as the person sees it (what is above the fold).
 */
export async function shoot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  await page.screenshot({
    path: `${process.env.E2E_ARTIFACTS ?? 'e2e/.artifacts'}/screens/${name}-${page.viewportSize()?.width ?? 0}.png`,
    fullPage,
  });
}
