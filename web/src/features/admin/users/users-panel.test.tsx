// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { resetApp, type Server } from '../../../testing/render-app.tsx';
import { renderConsole } from '../shared/render-console.tsx';
import type { AdminUser } from './api/get-users.ts';

afterEach(resetApp);

const carol: AdminUser = {
  id: 'u2',
  username: 'carol',
  email: 'carol@example.com',
  email_verified: true,
  full_name: 'Carol Jones',
  role: 'buyer',
  country: 'DE',
  phone: '+49 1',
  created_at: '2026-01-02T00:00:00Z',
  is_frozen: false,
  suspension_reason: null,
  totp_enabled: true,
  must_change_password: false,
};
const users =
  (answer: Server): Server =>
  (request) =>
    request.path === '/api/admin/users' ? { status: 200, body: [carol] } : answer(request);
const row = async () => (await screen.findByText('Carol Jones')).closest('tr')!;

describe('Users', () => {
  it("lists the spec's fields and badges", async () => {
    renderConsole(
      '/admin?tab=users',
      users(() => undefined),
    );
    const r = await row();
    for (const text of ['buyer', '2FA', '@carol', 'carol@example.com', 'DE', '+49 1', '2 Jan 2026'])
      expect(within(r).getByText(text)).toBeTruthy();
    expect(within(r).queryByText('SUSPENDED')).toBeNull();
  });

  it('Edit sends only the non-empty fields and says User updated successfully', async () => {
    const app = renderConsole(
      '/admin?tab=users',
      users(({ method }) =>
        method === 'PUT' ? { status: 200, body: { detail: 'User updated successfully' } } : undefined,
      ),
    );
    await userEvent.click(within(await row()).getByRole('button', { name: 'Edit carol' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit user' });
    await userEvent.clear(within(dialog).getByLabelText('Full Name'));
    await userEvent.selectOptions(within(dialog).getByLabelText('Role'), 'seller');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update User' }));
    expect(await screen.findByText('User updated successfully')).toBeTruthy();
    expect(app.calls('PUT')).toEqual([
      { method: 'PUT', path: '/api/admin/users/u2', body: { email: 'carol@example.com', role: 'seller' } },
    ]);
  });

  it('Suspend asks for a reason: cancelling sends nothing, an empty reason is refused, then User suspended', async () => {
    const app = renderConsole(
      '/admin?tab=users',
      users(({ method }) => (method === 'POST' ? { status: 200, body: { detail: 'User suspended' } } : undefined)),
    );
    await userEvent.click(within(await row()).getByRole('button', { name: 'Suspend carol' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(within(await row()).getByRole('button', { name: 'Suspend carol' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Please provide a reason for the suspension');
    expect(app.calls('POST', '/api/admin/')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Fraud');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText('User suspended')).toBeTruthy();
    expect(app.calls('POST', '/api/admin/')).toEqual([
      { method: 'POST', path: '/api/admin/users/u2/suspend', body: { reason: 'Fraud' } },
    ]);
  });

  it("Delete says it cannot be undone and shows the server's refusal, or the spec's fallback without one", async () => {
    let detail: string | undefined = 'This user has 1 escrow that is not finished';
    renderConsole(
      '/admin?tab=users',
      users(({ method }) =>
        method === 'DELETE' ? { status: 409, body: detail ? { detail, code: 'conflict' } : {} } : undefined,
      ),
    );
    await userEvent.click(within(await row()).getByRole('button', { name: 'Delete carol' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Carol Jones?' });
    expect(within(dialog).getByText(/This action cannot be undone/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete user' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This user has 1 escrow that is not finished');
    detail = undefined;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete user' }));
    expect((await within(dialog).findByText('Failed to delete user')).textContent).toBe('Failed to delete user');
  });

  it('with 2FA on, every power asks for the code and sends it', async () => {
    const app = renderConsole(
      '/admin?tab=users',
      users(({ method }) => (method === 'POST' ? { status: 200, body: { detail: 'ok' } } : undefined)),
      { totp: true },
    );
    await userEvent.click(within(await row()).getByRole('button', { name: 'Reset the password of carol' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Your 2FA code/), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset password' }));
    const shown = await screen.findByRole('dialog', { name: 'Temporary password' });
    const sent = app.calls('POST', '/api/admin/')[0]!.body as { temporary_password: string; totp_code: string };
    expect(sent.totp_code).toBe('123456');
    expect(sent.temporary_password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(within(shown).getByText(sent.temporary_password)).toBeTruthy();
  });

  it('offers to cancel the unpaid escrows of a suspended account only, with a reason and the code, and reports what was left', async () => {
    const suspended = { ...carol, is_frozen: true, suspension_reason: 'Hoarding' };
    const app = renderConsole(
      '/admin?tab=users',
      (request) =>
        request.path === '/api/admin/users'
          ? { status: 200, body: [suspended, { ...carol, id: 'u3', username: 'dave', full_name: 'Dave Active' }] }
          : request.method === 'POST'
            ? {
                status: 200,
                body: {
                  detail: '2 unpaid escrows cancelled; 1 left (see skipped)',
                  cancelled: ['e1', 'e2'],
                  skipped: [{ id: 'e3000000-0000', detail: 'The buyer has marked this escrow as paid' }],
                },
              }
            : undefined,
      { totp: true },
    );
    const active = (await screen.findByText('Dave Active')).closest('tr')!;
    expect(within(active).queryByRole('button', { name: /Cancel the unpaid escrows/ })).toBeNull();
    await userEvent.click(within(await row()).getByRole('button', { name: 'Cancel the unpaid escrows of carol' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel the unpaid escrows of Carol Jones?' });
    await userEvent.type(within(dialog).getByLabelText(/Your 2FA code/), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel unpaid escrows' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Give a reason (both parties of each escrow are mailed it)',
    );
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Abuse of the pool');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel unpaid escrows' }));
    expect(
      await screen.findByText(
        /2 unpaid escrows cancelled; 1 left \(see skipped\): escrow e3000000: The buyer has marked this escrow as paid/,
      ),
    ).toBeTruthy();
    expect(app.calls('POST', '/api/admin/')).toEqual([
      {
        method: 'POST',
        path: '/api/admin/users/u2/cancel-unpaid-escrows',
        body: { reason: 'Abuse of the pool', totp_code: '123456' },
      },
    ]);
  });
});
