// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp, resetApp } from '../../../testing/render-app.tsx';

afterEach(resetApp);

async function fillIn(password: string, confirm: string) {
  await userEvent.type(await screen.findByLabelText(/Full name/), 'Ana Souza');
  await userEvent.type(screen.getByLabelText(/Username/), 'ana.s');
  await userEvent.type(screen.getByLabelText(/Email/), 'ana@example.com');
  await userEvent.type(screen.getByLabelText(/^Password/), password);
  await userEvent.type(screen.getByLabelText(/Confirm password/), confirm);
}

describe('Create account', () => {
  it('refuses passwords that do not match, and short ones, without calling the server', async () => {
    const app = renderApp('/register');
    await fillIn('long enough 1', 'long enough 2');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Passwords do not match')).toBeTruthy();

    await userEvent.clear(screen.getByLabelText(/^Password/));
    await userEvent.type(screen.getByLabelText(/^Password/), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText(/at least 8 characters/i, { selector: '.field-error' })).toBeTruthy();
    expect(app.calls('POST')).toHaveLength(0);
  });

  it('registers a seller, mentions the verification mail and goes to sign-in after 2 seconds', async () => {
    const app = renderApp('/register', ({ method, path }) =>
      method === 'POST' && path === '/api/auth/register'
        ? { status: 201, body: { detail: 'Account created. Check your e-mail to verify your address.' } }
        : undefined,
    );
    await fillIn('long enough 1', 'long enough 1');
    await userEvent.click(screen.getByLabelText(/Sell/));
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText(/Check your e-mail to verify your address/)).toBeTruthy();
    const sent = app.calls('POST', '/api/auth/register')[0]?.body as Record<string, unknown>;
    expect(sent).toMatchObject({ full_name: 'Ana Souza', username: 'ana.s', email: 'ana@example.com', role: 'seller' });
    expect(app.router.state.location.pathname).toBe('/register');
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'), { timeout: 3000 });
  });

  it('shows the server’s detail when the username is taken', async () => {
    renderApp('/register', ({ path }) =>
      path === '/api/auth/register' ? { status: 409, body: { detail: 'Username already registered' } } : undefined,
    );
    await fillIn('long enough 1', 'long enough 1');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Username already registered')).toBeTruthy();
  });
});
