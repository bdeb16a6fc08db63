// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp, resetApp } from '../testing/render-app.tsx';

afterEach(resetApp);

const me = {
  id: 'u1',
  username: 'alice',
  email: 'alice@example.com',
  role: 'buyer',
  email_verified: true,
  totp_enabled: false,
};

describe('Route guard and session', () => {
  it('sends a visitor without a session from /dashboard to /login', async () => {
    const app = renderApp('/dashboard');
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
  });

  it('drops a token the server no longer accepts and asks to sign in', async () => {
    localStorage.setItem('escrow.session', 'revoked');
    const app = renderApp('/dashboard', ({ path }) =>
      path === '/api/auth/me' ? { status: 401, body: { detail: 'Not authenticated' } } : undefined,
    );
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('escrow.session')).toBeNull();
  });

  it('shows the dashboard to a signed-in user, and Logout revokes the token and goes home', async () => {
    localStorage.setItem('escrow.session', 'good');
    const app = renderApp('/', ({ method, path }) => {
      if (path === '/api/auth/me') return { status: 200, body: me };
      if (path === '/api/escrows') return { status: 200, body: [] };
      if (method === 'POST' && path === '/api/auth/logout') return { status: 200, body: { detail: 'Logged out' } };
      return undefined;
    });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByRole('heading', { name: 'My Escrows' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
    expect(app.calls('POST', '/api/auth/logout')).toHaveLength(1);
    expect(localStorage.getItem('escrow.session')).toBeNull();
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeTruthy();
  });
});
