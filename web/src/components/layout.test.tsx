// @vitest-environment happy-dom
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp, resetApp, type Server } from '../testing/render-app.tsx';

afterEach(resetApp);
// The first visit to a lazily loaded page compiles its chunk, which takes more than a second on a busy machine.
configure({ asyncUtilTimeout: 5000 });

const me = (role: 'buyer' | 'seller' | 'admin') => ({
  id: 'u1',
  username: 'alice',
  email: 'alice@example.com',
  full_name: 'Alice Example',
  role,
  email_verified: true,
  totp_enabled: false,
  country: null,
  phone: null,
  created_at: '2026-11-01T10:00:00.000Z',
});
const signedInAs =
  (role: 'buyer' | 'seller' | 'admin'): Server =>
  ({ path }) => {
    if (path === '/api/auth/me') return { status: 200, body: me(role) };
    if (path === '/api/escrows') return { status: 200, body: [] };
    return undefined;
  };
const mainNav = () => within(screen.getByRole('navigation', { name: 'Main' }));

describe('Navigation', () => {
  it("says 'Loading...' while the stored session is checked, never the signed-out links", async () => {
    localStorage.setItem('escrow.session', 'stored');
    renderApp('/about', ({ path }) => (path === '/api/auth/me' ? new Promise(() => undefined) : undefined));
    expect(await mainNav().findByText('Loading...')).toBeTruthy();
    expect(mainNav().queryByRole('link', { name: 'Sign in' })).toBeNull();
    expect(mainNav().queryByRole('link', { name: 'Create account' })).toBeNull();
  });

  it('offers sign-in and registration to a visitor', async () => {
    renderApp('/about');
    expect(await mainNav().findByRole('link', { name: 'Sign in' })).toBeTruthy();
    expect(mainNav().getByRole('link', { name: 'Create account' })).toBeTruthy();
    expect(mainNav().queryByRole('button', { name: 'Logout' })).toBeNull();
  });

  it('gives a buyer Dashboard, Profile and Logout, and no Admin', async () => {
    localStorage.setItem('escrow.session', 'good');
    renderApp('/dashboard', signedInAs('buyer'));
    expect(await mainNav().findByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(mainNav().getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(mainNav().getByRole('link', { name: 'Profile' }).getAttribute('href')).toBe('/profile');
    expect(mainNav().queryByRole('link', { name: 'Admin' })).toBeNull();
    expect(mainNav().queryByRole('link', { name: 'Sign in' })).toBeNull();
  });

  it('gives an admin the Admin link', async () => {
    localStorage.setItem('escrow.session', 'good');
    renderApp('/dashboard', signedInAs('admin'));
    expect((await mainNav().findByRole('link', { name: 'Admin' })).getAttribute('href')).toBe('/admin');
  });

  it('closes the phone menu with Escape and gives focus back to its button', async () => {
    renderApp('/about');
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await userEvent.tab();
    await userEvent.keyboard('{Escape}');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });
});

describe('A session the server stops accepting', () => {
  it('lands on /login saying the session ended, when any call answers 401, and returns there after signing in', async () => {
    localStorage.setItem('escrow.session', 'revoked-later');
    let revoked = false;
    const app = renderApp('/profile', ({ method, path }) => {
      if (path === '/api/auth/me')
        return revoked
          ? { status: 401, body: { detail: 'Not signed in', code: 'unauthenticated' } }
          : { status: 200, body: me('buyer') };
      if (method === 'POST' && path === '/api/profile/switch-role') {
        revoked = true;
        return { status: 401, body: { detail: 'Not signed in', code: 'unauthenticated' } };
      }
      if (method === 'POST' && path === '/api/auth/login')
        return { status: 200, body: { access_token: 'fresh', token_type: 'bearer' } };
      return undefined;
    });
    await userEvent.click(await screen.findByRole('radio', { name: /Seller/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Switch role' }));

    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText(/Your session has ended/)).toBeTruthy();
    expect(localStorage.getItem('escrow.session')).toBeNull();
    expect(mainNav().getByRole('link', { name: 'Sign in' })).toBeTruthy();

    revoked = false;
    await userEvent.type(screen.getByLabelText(/Username/), 'alice');
    await userEvent.type(screen.getByLabelText(/Password/), 'a password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/profile'));
  });

  it('sends a user whose password an admin reset to the change-password form, and keeps them there', async () => {
    localStorage.setItem('escrow.session', 'must-change');
    const app = renderApp('/dashboard', ({ path }) => {
      if (path === '/api/auth/me') return { status: 200, body: me('seller') };
      if (path === '/api/escrows')
        return { status: 403, body: { detail: 'Change your password first', code: 'password_change_required' } };
      return undefined;
    });
    await waitFor(() => expect(app.router.state.location.search).toBe('?tab=security'));
    expect(app.router.state.location.pathname).toBe('/profile');
    expect(await screen.findByText(/An administrator reset your password/)).toBeTruthy();
    expect(screen.getByLabelText(/Temporary password/)).toBeTruthy();

    await userEvent.click(mainNav().getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(app.router.state.location.search).toBe('?tab=security'));
    expect(localStorage.getItem('escrow.session')).toBe('must-change');
  });
});

describe('A session that cannot be checked', () => {
  it('keeps the session and offers Retry when the service does not answer, instead of asking to sign in', async () => {
    localStorage.setItem('escrow.session', 'stored');
    let up = false;
    const app = renderApp('/profile', ({ path }) => {
      if (path === '/api/auth/me')
        return up
          ? { status: 200, body: me('buyer') }
          : { status: 503, body: { detail: 'Service unavailable', code: 'not_ready' } };
      return undefined;
    });
    // Two quick retries first (0.5 s, then 1 s): a blip is not a failure.
    expect(
      await screen.findByText(/Could not reach the service to check your session/, {}, { timeout: 4000 }),
    ).toBeTruthy();
    expect(mainNav().getByText('Offline')).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/profile');
    expect(localStorage.getItem('escrow.session')).toBe('stored');
    expect(mainNav().queryByRole('link', { name: 'Sign in' })).toBeNull();

    up = true;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' })).toBeTruthy();
    expect(mainNav().getByRole('button', { name: 'Logout' })).toBeTruthy();
  });
});

describe('A suspended account', () => {
  it('is sent to sign in (where the server says why), not told the service is down', async () => {
    localStorage.setItem('escrow.session', 'suspended');
    const app = renderApp('/dashboard', ({ path }) =>
      path === '/api/auth/me' ? { status: 403, body: { detail: 'Account suspended', code: 'forbidden' } } : undefined,
    );
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText(/Your session has ended/)).toBeTruthy();
    expect(screen.queryByText(/Could not reach the service/)).toBeNull();
    expect(localStorage.getItem('escrow.session')).toBeNull();
  });
});
