// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { resetApp } from '../../../testing/render-app.tsx';
import { renderConsole } from '../shared/render-console.tsx';
import { checkLines } from './components/add-addresses-form.tsx';

afterEach(resetApp);

const GOOD = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const OTHER = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const pool = [
  {
    id: 'a1',
    address_string: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
    network: 'mainnet',
    status: 'assigned',
    assigned_to_escrow_id: '0b9f6a2e-4c1d-4e5f-8a7b-1c2d3e4f5a6b',
    created_at: '2026-01-01T00:00:00Z',
  },
  {
    id: 'a2',
    address_string: OTHER,
    network: 'mainnet',
    status: 'available',
    assigned_to_escrow_id: null,
    created_at: '2026-01-01T00:00:00Z',
  },
];

describe('checkLines', () => {
  it('checks each line with the domain code for the network, once per address', () => {
    expect(checkLines(`${GOOD}\n\n nope \n${GOOD}\ntb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx`, 'mainnet')).toEqual({
      valid: [GOOD],
      refused: [
        { address: 'nope', reason: 'This address is not a valid Bitcoin address (bad characters or checksum)' },
        {
          address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
          reason: 'This address is a testnet or signet address, but this service runs on mainnet',
        },
      ],
    });
  });
});

describe('Addresses', () => {
  it('sends the good lines in one request with one code and reports what the server refused, with its detail', async () => {
    const app = renderConsole('/admin?tab=addresses', ({ method, path, body }) => {
      if (path === '/api/admin/addresses' && method === 'GET') return { status: 200, body: pool };
      if (method !== 'POST' || path !== '/api/admin/addresses/bulk') return undefined;
      const results = (body as { addresses: string[] }).addresses.map((address) =>
        address === OTHER
          ? { address, added: false, id: null, detail: 'This address is already in the pool' }
          : { address, added: true, id: 'new', detail: null },
      );
      return { status: 200, body: { detail: '1 address added, 1 refused', added: 1, refused: 1, results } };
    });
    await userEvent.type(await screen.findByLabelText('Addresses to add, one a line'), `${GOOD}\nbad one\n${OTHER}`);
    await userEvent.click(screen.getByRole('button', { name: 'Add to the pool' }));
    const dialog = screen.getByRole('dialog', { name: 'Add 2 addresses to the pool?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Added 1 address to the pool.')).toBeTruthy();
    const report = screen.getByText('Not added:').closest<HTMLElement>('[role="alert"]')!;
    expect(within(report).getByText(/already in the pool/)).toBeTruthy();
    expect(within(report).getByText(/not a valid Bitcoin address/)).toBeTruthy();
    expect(app.calls('POST').map((c) => [c.path, c.body])).toEqual([
      ['/api/admin/addresses/bulk', { addresses: [GOOD, OTHER] }],
    ]);
  });

  it('keeps the dialog open with the refusal when the whole request is refused', async () => {
    renderConsole('/admin?tab=addresses', ({ method, path }) => {
      if (path === '/api/admin/addresses' && method === 'GET') return { status: 200, body: pool };
      if (method === 'POST') return { status: 422, body: { detail: 'Invalid 2FA code', code: 'totp_invalid' } };
      return undefined;
    });
    await userEvent.type(await screen.findByLabelText('Addresses to add, one a line'), `${GOOD}\n${OTHER}`);
    await userEvent.click(screen.getByRole('button', { name: 'Add to the pool' }));
    const dialog = screen.getByRole('dialog', { name: 'Add 2 addresses to the pool?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Invalid 2FA code');
  });

  it('offers edit and delete only for an available address, and says why not for the others', async () => {
    const app = renderConsole('/admin?tab=addresses', ({ method, path }) => {
      if (path === '/api/admin/addresses' && method === 'GET') return { status: 200, body: pool };
      if (method === 'DELETE') return { status: 500, body: {} };
      return undefined;
    });
    const assigned = (await screen.findByText(pool[0]!.address_string)).closest('tr')!;
    expect(within(assigned).getByText('Assigned to an escrow: cannot be edited or deleted')).toBeTruthy();
    expect(within(assigned).queryByRole('button')).toBeNull();
    expect(screen.getByText(/Only 1 free address left/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: `Delete ${OTHER}` }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this address?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete address' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to delete address');
    expect(app.calls('DELETE').map((c) => c.path)).toEqual(['/api/admin/addresses/a2']);
  });
});
