// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp, resetApp } from '../../../testing/render-app.tsx';

afterEach(resetApp);

const me = {
  id: 'u1',
  username: 'alice',
  email: 'alice@example.com',
  role: 'buyer',
  email_verified: true,
  totp_enabled: true,
};

describe('Sign in', () => {
  it('says what is missing and sends nothing when the form is empty', async () => {
    const app = renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findAllByText(/is required|at least/)).toHaveLength(2);
    expect(app.calls('POST')).toHaveLength(0);
  });

  it('asks for the 2FA code when the server requires it, then signs in with it', async () => {
    const app = renderApp('/login', ({ method, path, body }) => {
      if (method === 'POST' && path === '/api/auth/login') {
        const code = (body as { totp_code?: string }).totp_code;
        if (!code) return { status: 401, body: { detail: '2FA code required', code: 'totp_required' } };
        return code === '123456'
          ? { status: 200, body: { access_token: 'token-1', token_type: 'bearer' } }
          : { status: 401, body: { detail: 'Invalid 2FA code' } };
      }
      if (path === '/api/auth/me') return { status: 200, body: me };
      return undefined;
    });
    expect(screen.queryByPlaceholderText('Enter 6-digit code')).toBeNull();
    await userEvent.type(await screen.findByLabelText(/Username/), 'alice');
    await userEvent.type(screen.getByLabelText(/Password/), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('Please enter your 2FA code')).toBeTruthy();
    const code = screen.getByPlaceholderText('Enter 6-digit code');
    await userEvent.type(code, '999999');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid 2FA code')).toBeTruthy();

    await userEvent.clear(code);
    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem('escrow.session')).toBe('token-1');
    expect(app.calls('POST', '/api/auth/login').map((r) => (r.body as { totp_code?: string }).totp_code)).toEqual([
      undefined,
      '999999',
      '123456',
    ]);
  });

  it('shows the server’s reason for a refused sign-in', async () => {
    renderApp('/login', ({ path }) =>
      path === '/api/auth/login' ? { status: 403, body: { detail: 'Account suspended' } } : undefined,
    );
    await userEvent.type(await screen.findByLabelText(/Username/), 'mallory');
    await userEvent.type(screen.getByLabelText(/Password/), 'whatever123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Account suspended')).toBeTruthy();
    expect(localStorage.getItem('escrow.session')).toBeNull();
  });
});
