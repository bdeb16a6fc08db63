// @vitest-environment happy-dom
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import {
  displayBtc,
  displayUsd,
  parsePercentToBps,
  parseRateToCents,
  parseUsdToCents,
  quote,
} from '../../../../../domain/money.ts';
import { renderApp, resetApp, type Server } from '../../../testing/render-app.tsx';
import { escrowFixture } from '../../../testing/escrow-fixture.ts';

afterEach(resetApp);
// A page's first render also loads its lazy chunk, which takes longer than the default second on a busy machine.
configure({ asyncUtilTimeout: 5000 });

const buyer = {
  id: 'user-ann',
  username: 'ann',
  email: 'ann@example.com',
  full_name: 'Ann',
  role: 'buyer',
  email_verified: true,
  totp_enabled: false,
  country: null,
  phone: null,
};
const pricing = (rate: number, fee: number) => ({
  btc_usd_rate: rate,
  fee_percentage: fee,
  rate_set_at: new Date(Date.now() - 5 * 60_000).toISOString(),
});

function server(options: { me?: object; price?: object | null; create?: Server } = {}): Server {
  return (request) => {
    const { method, path } = request;
    if (path === '/api/auth/me') return { status: 200, body: options.me ?? buyer };
    if (path === '/api/escrows' && method === 'GET') return { status: 200, body: [] };
    if (path === '/api/btc-rate')
      return options.price === null
        ? { status: 503, body: { detail: 'No BTC rate has been set yet', code: 'not_ready' } }
        : { status: 200, body: options.price ?? pricing(50000, 1.5) };
    if (path === '/api/escrows' && method === 'POST') return options.create?.(request) ?? undefined;
    return undefined;
  };
}

const signedIn = (path: string, scripted: Server) => {
  localStorage.setItem('escrow.session', 'token-ann');
  return renderApp(path, scripted);
};

async function openForm() {
  await userEvent.click(await screen.findByRole('button', { name: '+ Create Escrow' }));
  return screen.findByRole('dialog', { name: 'Create Escrow' });
}

const figures = (dialog: HTMLElement) => ({
  fee: within(dialog).getByTestId('live-fee').textContent,
  total: within(dialog).getByTestId('live-total').textContent,
  btc: within(dialog).getByTestId('live-btc').textContent,
});

/** [amount typed, BTC/USD rate, fee %]: figures must equal what the server's money module fixes for them. */
const table: Array<[string, number, number]> = [
  ['1000', 50000, 1.5],
  ['1000.00', 64250.37, 1.5],
  ['0.01', 50000, 1.5],
  ['2029.99', 97000.01, 1.5],
  ['33.33', 12345.67, 2.25],
  ['1', 1, 0],
  ['999999.99', 104321.09, 1.5],
  ['12.5', 3.33, 10],
];

describe('Create escrow: the amounts, live', () => {
  it.each(table)(
    '%s USD at %s USD/BTC and %s percent: fee, total and BTC as the server fixes them',
    async (amount, rate, fee) => {
      signedIn('/dashboard', server({ price: pricing(rate, fee) }));
      const dialog = await openForm();
      await userEvent.type(within(dialog).getByLabelText(/Amount in USD/), amount);
      const expected = quote({
        amount_cents: parseUsdToCents(amount),
        fee_bps: parsePercentToBps(String(fee)),
        rate_cents: parseRateToCents(String(rate)),
      });
      await waitFor(() =>
        expect(figures(dialog)).toEqual({
          fee: displayUsd(expected.fee_cents),
          total: displayUsd(expected.total_cents),
          btc: displayBtc(expected.amount_sats),
        }),
      );
    },
  );

  it("gives known figures for the spec's example: $1,000 at 1.5% and $50,000 per BTC", async () => {
    signedIn('/dashboard', server());
    const dialog = await openForm();
    await userEvent.type(within(dialog).getByLabelText(/Amount in USD/), '1000');
    await waitFor(() => expect(figures(dialog)).toEqual({ fee: '$15.00', total: '$1,015.00', btc: '0.02030000 BTC' }));
    expect(within(dialog).getByText(/At \$50,000\.00 per BTC, a rate set 5 minutes ago/)).toBeTruthy();
  });

  it('says so and offers no form while no rate is set', async () => {
    signedIn('/dashboard', server({ price: null }));
    const dialog = await openForm();
    expect(await within(dialog).findByText('No BTC rate has been set yet')).toBeTruthy();
    expect(within(dialog).queryByLabelText(/Amount in USD/)).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('checks every field before sending, and asks a user with 2FA for the code', async () => {
    const app = signedIn('/dashboard', server({ me: { ...buyer, totp_enabled: true } }));
    const dialog = await openForm();
    await userEvent.type(within(dialog).getByLabelText(/Amount in USD/), '12.345');
    await userEvent.clear(within(dialog).getByLabelText(/Payment deadline/));
    await userEvent.type(within(dialog).getByLabelText(/Payment deadline/), '91');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Escrow' }));
    expect(within(dialog).getByText('Product or service is required')).toBeTruthy();
    expect(within(dialog).getByText("The seller's e-mail is required")).toBeTruthy();
    expect(within(dialog).getByText('The amount has more than 2 decimal places')).toBeTruthy();
    expect(within(dialog).getByText('Description and terms are required')).toBeTruthy();
    expect(within(dialog).getByText('Payment deadline must be a whole number of days from 1 to 90')).toBeTruthy();
    expect(within(dialog).getByText('2FA code required to create escrow')).toBeTruthy();
    expect(app.calls('POST')).toHaveLength(0);
  });

  it('takes each error away as soon as its field is filled in, without another submit', async () => {
    signedIn('/dashboard', server());
    const dialog = await openForm();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Escrow' }));
    expect(within(dialog).getByText('Product or service is required')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/Product or service/), 'Pen');
    expect(within(dialog).queryByText('Product or service is required')).toBeNull();
    await userEvent.type(within(dialog).getByLabelText(/Seller's e-mail/), 'sam@');
    expect(within(dialog).getByText('Enter an e-mail address like name@example.com')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/Seller's e-mail/), 'example.com');
    expect(within(dialog).queryByText('Enter an e-mail address like name@example.com')).toBeNull();
    expect(within(dialog).getByText('Amount in USD is required')).toBeTruthy();
    expect(within(dialog).getByText('Description and terms are required')).toBeTruthy();
  });

  it('tells a user whose e-mail is not confirmed before the form, and offers the link again', async () => {
    const app = signedIn('/dashboard', (request) => {
      if (request.path === '/api/auth/resend-verification') return { status: 200, body: { detail: 'Sent' } };
      return server({ me: { ...buyer, email_verified: false } })(request);
    });
    const dialog = await openForm();
    expect(within(dialog).getByRole('alert').textContent).toMatch(/Confirm your e-mail address ann@example.com first/);
    expect(within(dialog).queryByLabelText(/Product or service/)).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Resend the link' }));
    expect(await within(dialog).findByText('A new link is on its way; check your inbox.')).toBeTruthy();
    expect(app.calls('POST', '/api/escrows')).toHaveLength(0);
  });

  it("sends the seller's e-mail and the code, then opens the payment dialog of a buyer's new escrow at once", async () => {
    const created = escrowFixture({ assigned_address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' });
    const app = signedIn('/dashboard', (request) => {
      if (request.path === `/api/escrows/${created.id}`) return { status: 200, body: created };
      if (request.path === `/api/escrows/${created.id}/history`) return { status: 200, body: [] };
      return server({ me: { ...buyer, totp_enabled: true }, create: () => ({ status: 201, body: created }) })(request);
    });
    const dialog = await openForm();
    await userEvent.type(within(dialog).getByLabelText(/Product or service/), 'Mirrorless camera');
    await userEvent.type(within(dialog).getByLabelText(/Seller's e-mail/), 'sam@example.com');
    await userEvent.type(within(dialog).getByLabelText(/Amount in USD/), '1000');
    await userEvent.type(within(dialog).getByLabelText(/Description and terms/), 'Body and two batteries');
    await userEvent.type(within(dialog).getByLabelText(/2FA code/), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Escrow' }));
    const payment = await screen.findByRole('dialog', { name: 'Payment information' });
    expect(within(payment).getByText('0.02030000 BTC')).toBeTruthy();
    expect(
      await within(payment).findByRole('img', {
        name: /QR code: pay 0.02030000 BTC to bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4/,
      }),
    ).toBeTruthy();
    expect(app.router.state.location.pathname).toBe(`/escrow/${created.id}`);
    expect(app.calls('POST', '/api/escrows')[0]!.body).toEqual({
      product_service: 'Mirrorless camera',
      description: 'Body and two batteries',
      amount_usd: '1000',
      deadline_days: 7,
      inspection_days: 3,
      seller_email: 'sam@example.com',
      totp_code: '123456',
    });
  });

  it('takes an inspection period of 0 to 30 days, and sends the one typed (0: accepted on receipt)', async () => {
    const created = escrowFixture({ assigned_address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' });
    const app = signedIn('/dashboard', (request) => {
      if (request.path.startsWith(`/api/escrows/${created.id}`))
        return { status: 200, body: request.path.endsWith('/history') ? [] : created };
      return server({ create: () => ({ status: 201, body: created }) })(request);
    });
    const dialog = await openForm();
    await userEvent.type(within(dialog).getByLabelText(/Product or service/), 'Pen');
    await userEvent.type(within(dialog).getByLabelText(/Seller's e-mail/), 'sam@example.com');
    await userEvent.type(within(dialog).getByLabelText(/Amount in USD/), '20');
    await userEvent.type(within(dialog).getByLabelText(/Description and terms/), 'Blue ink');
    const inspection = within(dialog).getByLabelText(/Inspection period/);
    await userEvent.clear(inspection);
    await userEvent.type(inspection, '31');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Escrow' }));
    expect(within(dialog).getByText('Inspection period must be a whole number of days from 0 to 30')).toBeTruthy();
    expect(app.calls('POST', '/api/escrows')).toHaveLength(0);
    await userEvent.clear(inspection);
    await userEvent.type(inspection, '0');
    expect(within(dialog).queryByText('Inspection period must be a whole number of days from 0 to 30')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Escrow' }));
    await waitFor(() => expect(app.calls('POST', '/api/escrows')).toHaveLength(1));
    expect(app.calls('POST', '/api/escrows')[0]!.body).toMatchObject({ inspection_days: 0, deadline_days: 7 });
  });

  it("shows the server's refusal, and a wrong 2FA code beside its field", async () => {
    let answer = {
      status: 403,
      body: { detail: 'Verify your e-mail address before opening an escrow', code: 'email_unverified' },
    };
    signedIn('/dashboard', server({ me: { ...buyer, totp_enabled: true }, create: () => answer }));
    const dialog = await openForm();
    await userEvent.type(within(dialog).getByLabelText(/Product or service/), 'Pen');
    await userEvent.type(within(dialog).getByLabelText(/Seller's e-mail/), 'sam@example.com');
    await userEvent.type(within(dialog).getByLabelText(/Amount in USD/), '10');
    await userEvent.type(within(dialog).getByLabelText(/Description and terms/), 'A pen');
    await userEvent.type(within(dialog).getByLabelText(/2FA code/), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Escrow' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Verify your e-mail address before opening an escrow',
    );
    answer = { status: 422, body: { detail: 'Invalid 2FA code', code: 'totp_invalid' } };
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Escrow' }));
    expect(await within(dialog).findByText('Invalid 2FA code')).toBeTruthy();
    answer = { status: 500, body: {} as never };
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Escrow' }));
    expect(await within(dialog).findByText('Failed to create escrow')).toBeTruthy();
  });
});
