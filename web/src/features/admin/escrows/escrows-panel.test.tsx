// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { escrowFixture } from '../../../testing/escrow-fixture.ts';
import { resetApp, type Server } from '../../../testing/render-app.tsx';
import { renderConsole } from '../shared/render-console.tsx';
import type { HistoryEntry } from './api/get-escrow-history.ts';

afterEach(resetApp);

const ID = '0b9f6a2e-4c1d-4e5f-8a7b-1c2d3e4f5a6b';
const escrow = escrowFixture({
  side: 'admin',
  allowed_actions: ['release', 'freeze', 'post_message'],
  id: ID,
  product_service: 'Camera',
  description: 'A camera',
  amount_usd: 1000,
  escrow_fee: 15,
  total_usd: 1015,
  fee_percentage: 1.5,
  btc_usd_rate: 50000,
  amount_btc: 0.0203,
  amount_sats: 2_030_000,
  status: 'funded',
  buyer_email: 'ann@example.com',
  seller_email: 'sam@example.com',
  created_by: 'u1',
  creator_side: 'buyer',
  assigned_address: 'bc1qpay',
  deadline_days: 7,
  payment_marked_at: '2026-01-02T10:00:00Z',
  buyer_confirmed_at: null,
  payout_address: 'bc1qseller',
  refund_address: null,
  payment_txid: null,
  payout_txid: null,
  seller_sats: null,
  buyer_sats: null,
  fee_sats: null,
  created_at: '2026-01-02T09:00:00Z',
  updated_at: '2026-01-02T10:00:00Z',
});
const noFacts = {
  address: null,
  payment_marked_at: null,
  buyer_confirmed_at: null,
  payout_address: null,
  refund_address: null,
  dispute_id: null,
};
const history: HistoryEntry[] = [
  {
    position: 7,
    version: 1,
    type: 'EscrowCreated',
    summary: 'created escrow 0b1c2d3e for 1,015.00 USD (0.02030000 BTC)',
    occurred_at: '2026-01-02T09:00:00Z',
    actor: 'u1',
    actor_username: 'ann',
    data: { product_service: 'Camera' },
    status_after: 'pending_payment',
    after: noFacts,
  },
  {
    position: 9,
    version: 2,
    type: 'PartyBound',
    summary: 'made sam the seller of escrow 0b1c2d3e',
    occurred_at: '2026-01-02T09:05:00Z',
    actor: 'system',
    actor_username: null,
    data: { side: 'seller', user_id: 'u2' },
    status_after: 'pending_payment',
    after: noFacts,
  },
];
const detail =
  (act: Server): Server =>
  (request) => {
    if (request.path === `/api/escrows/${ID}`) return { status: 200, body: escrow };
    if (request.path === `/api/admin/escrows/${ID}/history`) return { status: 200, body: history };
    if (request.path === `/api/escrows/${ID}/messages`) return { status: 200, body: [] };
    return request.method === 'POST' ? act(request) : undefined;
  };

describe('Escrows', () => {
  it('asks the server for one page, filtered and searched, from the URL', async () => {
    const app = renderConsole('/admin?tab=escrows&status=funded&q=ann%40example.com&page=1', ({ path }) =>
      path.startsWith('/api/admin/escrows?') ? { status: 200, body: { total: 26, escrows: [escrow] } } : undefined,
    );
    // The panel is its own chunk: the first render waits for it.
    expect(await screen.findByRole('link', { name: 'Camera' }, { timeout: 15_000 })).toBeTruthy();
    // The page asked for, and the tab's count of escrows ready to release.
    expect(
      app
        .calls('GET', '/api/admin/escrows?')
        .map((c) => c.path)
        .sort(),
    ).toEqual([
      '/api/admin/escrows?limit=25&offset=0&ready=true',
      '/api/admin/escrows?limit=25&offset=25&status=funded&search=ann%40example.com',
    ]);
    expect(screen.getByText('26 escrows, 26 to 26 shown')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Camera' }).getAttribute('href')).toBe(`/admin?tab=escrows&escrow=${ID}`);
  });

  it('filters to the escrows ready to release, says when none is, and marks each one ready', async () => {
    const readyOnes = [{ ...escrow, buyer_confirmed_at: '2026-01-03T10:00:00Z', ready_to_release: true }];
    const app = renderConsole('/admin?tab=escrows', ({ path }) => {
      if (!path.startsWith('/api/admin/escrows?')) return undefined;
      const escrows = path.includes('ready=true')
        ? readyOnes
        : [escrow, { ...escrow, id: 'other', product_service: 'Lens' }];
      return {
        status: 200,
        body: { total: escrows.length, ready_count: readyOnes.length, refund_due_count: 0, escrows },
      };
    });
    expect(await screen.findByRole('link', { name: 'Lens' }, { timeout: 15_000 })).toBeTruthy();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Ready to release only' }));
    expect(await screen.findByText('1 escrow')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Lens' })).toBeNull();
    expect(within(screen.getByRole('table')).getByText('Ready to release')).toBeTruthy();
    expect(app.router.state.location.search).toContain('ready=true');
    resetApp();
    renderConsole('/admin?tab=escrows&ready=true', ({ path }) =>
      path.startsWith('/api/admin/escrows?')
        ? { status: 200, body: { total: 0, ready_count: 0, refund_due_count: 0, escrows: [] } }
        : undefined,
    );
    expect(await screen.findByText('No escrow is ready to release.', {}, { timeout: 15_000 })).toBeTruthy();
  });

  it('release shows the satoshis and the payout address, and sends that address and the 2FA code', async () => {
    const app = renderConsole(
      '/admin?tab=escrows&escrow=' + ID,
      detail(() => ({ status: 200, body: { ...escrow, status: 'released' } })),
      { totp: true },
    );
    expect(await screen.findByText('Created escrow 0b1c2d3e for 1,015.00 USD (0.02030000 BTC)')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Release' }));
    const dialog = screen.getByRole('dialog', { name: 'Release the funds to the seller?' });
    // 2,030,000 sats hold $1,000 + $15 fee: the fee's share is floor(2,030,000 * 1500 / 101500) = 30,000.
    expect(within(dialog).getByText('0.02000000 BTC')).toBeTruthy();
    expect(within(dialog).getByText('0.00030000 BTC')).toBeTruthy();
    expect(within(dialog).getByText('bc1qseller')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/Your 2FA code/), '654321');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Release funds' }));
    expect(await screen.findByText('Escrow released')).toBeTruthy();
    expect(app.calls('POST')).toEqual([
      {
        method: 'POST',
        path: `/api/admin/escrows/${ID}/release`,
        body: { notes: '', expected_address: 'bc1qseller', totp_code: '654321' },
      },
    ]);
  });

  it('pays out a split both parties agreed to with no outcome, showing what each side gets and sending both addresses', async () => {
    const agreed = {
      ...escrow,
      allowed_actions: ['resolve', 'freeze', 'post_message'] as const,
      refund_address: 'bc1qbuyer',
      ready_to_release: true,
      proposals: [
        {
          id: 'p1',
          kind: 'split' as const,
          status: 'accepted' as const,
          proposed_by: 'buyer' as const,
          seller_percent: 70,
          days: null,
          note: null,
          seller_sats: 1_400_000,
          buyer_sats: 600_000,
          created_at: '2026-01-03T10:00:00Z',
        },
      ],
    };
    const app = renderConsole(
      '/admin?tab=escrows&escrow=' + ID,
      (request) =>
        request.path === `/api/escrows/${ID}`
          ? { status: 200, body: agreed }
          : detail(() => ({ status: 200, body: { ...agreed, status: 'released' } }))(request),
      { totp: true },
    );
    expect(await screen.findByText(/Both parties agreed to a split, 70% to the seller/)).toBeTruthy();
    expect(screen.queryByText(/In dispute/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Pay out as agreed' }));
    const dialog = screen.getByRole('dialog', { name: 'Pay out the agreed split?' });
    expect(within(dialog).getByText('0.01400000 BTC')).toBeTruthy();
    expect(within(dialog).getByText('0.00600000 BTC')).toBeTruthy();
    // What is held and not paid to either side: the escrow fee.
    expect(within(dialog).getByText('Fee kept').nextElementSibling?.textContent).toBe('0.00030000 BTC');
    await userEvent.type(within(dialog).getByLabelText(/Your 2FA code/), '654321');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pay out as agreed' }));
    expect(await screen.findByText('Settlement paid out')).toBeTruthy();
    expect(app.calls('POST')).toEqual([
      {
        method: 'POST',
        path: `/api/admin/escrows/${ID}/resolve`,
        body: { expected_address: 'bc1qseller', expected_refund_address: 'bc1qbuyer', totp_code: '654321' },
      },
    ]);
  });

  it('release marks a payout address proven by its BIP-322 signature', async () => {
    const proven = { ...escrow, payout_address_proven: true };
    renderConsole('/admin?tab=escrows&escrow=' + ID, (request) =>
      request.path === `/api/escrows/${ID}` ? { status: 200, body: proven } : detail(() => undefined)(request),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Release' }));
    const dialog = screen.getByRole('dialog', { name: 'Release the funds to the seller?' });
    expect(within(dialog).getByText('bc1qseller')).toBeTruthy();
    expect(within(dialog).getByText('(proven by its signature)')).toBeTruthy();
  });

  it('offers the release by itself once a replaced payout address is no longer held, on a page left open', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const heldUntil = new Date(Date.now() + 60_000).toISOString();
    const held = { ...escrow, payout_address_held_until: heldUntil, allowed_actions: ['freeze', 'post_message'] };
    const app = renderConsole('/admin?tab=escrows&escrow=' + ID, (request) =>
      request.path === `/api/escrows/${ID}`
        ? {
            status: 200,
            body: Date.now() < Date.parse(heldUntil) ? held : { ...held, allowed_actions: escrow.allowed_actions },
          }
        : detail(() => undefined)(request),
    );
    expect(await screen.findByText(/Replaced recently: no money goes to it before/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Release' })).toBeNull();
    const reads = app.calls('GET', `/api/escrows/${ID}`).length;
    await vi.advanceTimersByTimeAsync(62_000);
    expect(await screen.findByRole('button', { name: 'Release' })).toBeTruthy();
    expect(screen.queryByText(/Replaced recently/)).toBeNull();
    // Asked again once at the hold's end, not polled meanwhile.
    expect(app.calls('GET', `/api/escrows/${ID}`).length).toBe(reads + 1);
  });

  it('a payout address changed since the dialog opened is refused with the server detail, inside the dialog', async () => {
    renderConsole(
      '/admin?tab=escrows&escrow=' + ID,
      detail(() => ({
        status: 409,
        body: { detail: "The seller's payout address changed; check it again", code: 'address_changed' },
      })),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Release' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Release funds' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      "The seller's payout address changed; check it again",
    );
  });

  it('freeze needs a reason; the fallback names the action when the server gives no detail', async () => {
    const app = renderConsole(
      '/admin?tab=escrows&escrow=' + ID,
      detail(() => ({ status: 500, body: {} })),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Freeze' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Freeze' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Give a reason (it is kept in the log)');
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Check');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Freeze' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to freeze escrow');
    expect(app.calls('POST')[0]!.body).toEqual({ reason: 'Check' });
  });
});

describe('Escrow history', () => {
  it('tells each event in a sentence with users by username, the event type only as a detail', async () => {
    renderConsole(
      '/admin?tab=escrows&escrow=' + ID,
      detail(() => undefined),
    );
    const bound = (await screen.findByText('Made sam the seller of escrow 0b1c2d3e')).closest('li')!;
    expect(bound.textContent).toContain('by system');
    // The user id is only in the record, folded away.
    expect(within(bound).getByText('What was recorded (2 fields)').closest('details')!.open).toBe(false);
    const created = screen.getByText(/^Created escrow/).closest('li')!;
    expect(created.textContent).toContain('by ann');
    expect(within(created).getByText('EscrowCreated').className).toContain('mono');
  });
});

describe('Cancel an unpaid escrow', () => {
  it('shows the escrow, its amount and the address it frees, needs a reason, and sends it with the 2FA code', async () => {
    const unpaid = {
      ...escrow,
      status: 'pending_payment',
      payment_marked_at: null,
      payout_address: null,
      allowed_actions: ['cancel', 'freeze'],
    };
    const app = renderConsole(
      '/admin?tab=escrows&escrow=' + ID,
      (request) =>
        request.path === `/api/escrows/${ID}` && request.method === 'GET'
          ? { status: 200, body: unpaid }
          : detail(() => ({ status: 200, body: { ...unpaid, status: 'cancelled' } }))(request),
      { totp: true },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel escrow' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel this unpaid escrow?' });
    expect(within(dialog).getByText('bc1qpay')).toBeTruthy();
    expect(within(dialog).getByText('0.02030000 BTC')).toBeTruthy();
    expect(within(dialog).getByText('$1,015.00', { exact: false })).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/Your 2FA code/), '654321');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel escrow' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Give a reason (both parties are mailed it)');
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Hoarding pool addresses');
    await userEvent.type(within(dialog).getByLabelText(/Your 2FA code/), '654321');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel escrow' }));
    expect(await screen.findByText('Escrow cancelled')).toBeTruthy();
    expect(app.calls('POST')).toEqual([
      {
        method: 'POST',
        path: `/api/admin/escrows/${ID}/cancel`,
        body: { reason: 'Hoarding pool addresses', totp_code: '654321' },
      },
    ]);
  });
});

describe('the powers offered on one escrow', () => {
  it.each([
    [
      'waiting for payment, no address',
      ['assign_address', 'cancel', 'freeze', 'post_message'],
      ['Assign address', 'Cancel escrow', 'Freeze'],
    ],
    ['funded, both addresses set', ['release', 'refund', 'freeze', 'post_message'], ['Release', 'Refund', 'Freeze']],
    ['frozen', ['unfreeze', 'post_message'], ['Unfreeze']],
    ['released', ['post_message'], []],
  ] as const)('%s: exactly the allowed actions', async (_what, allowed, buttons) => {
    const shown = { ...escrow, allowed_actions: [...allowed] };
    renderConsole('/admin?tab=escrows&escrow=' + ID, (request) =>
      request.path === `/api/escrows/${ID}` ? { status: 200, body: shown } : detail(() => undefined)(request),
    );
    expect(await screen.findByText('EscrowCreated')).toBeTruthy();
    const powers = document.querySelector('.escrow-detail .row-actions')!;
    expect(
      within(powers as HTMLElement)
        .queryAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(buttons);
  });
});
