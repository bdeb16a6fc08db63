// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FirstAdminForm } from './first-admin-form.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the first admin form', () => {
  it('asks for the same account fields as sign-up, checks them, and sends them with the setup token', async () => {
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) => {
        sent.push(JSON.parse(String(init.body)));
        return new Response(JSON.stringify({ detail: 'no' }), {
          status: 409,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    const onCreated = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
        <FirstAdminForm token="setup-token" onCreated={onCreated} />
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Create admin account' }));
    expect(await screen.findByText('Full name is required')).toBeTruthy();
    expect(screen.getByText(/Where admin notices go/)).toBeTruthy();
    expect(sent).toEqual([]);

    await userEvent.type(screen.getByLabelText(/Full name/), 'Olga Admin');
    await userEvent.type(screen.getByLabelText(/Username/), 'olga');
    await userEvent.type(screen.getByLabelText(/Email/), 'olga@example.com');
    await userEvent.type(screen.getByLabelText(/^Password/), 'a long passphrase');
    await userEvent.type(screen.getByLabelText(/Confirm password/), 'a long passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Create admin account' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          token: 'setup-token',
          full_name: 'Olga Admin',
          username: 'olga',
          email: 'olga@example.com',
          password: 'a long passphrase',
          confirm_password: 'a long passphrase',
        },
      ]),
    );
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(onCreated).not.toHaveBeenCalled();
  });
});
