// @vitest-environment happy-dom
import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderApp, resetApp, type SentRequest } from '../../testing/render-app.tsx';

afterEach(resetApp);
// The first visit to a lazily loaded page compiles its chunk, which takes more than a second on a busy machine.
configure({ asyncUtilTimeout: 5000 });
beforeEach(() => localStorage.setItem('escrow.session', 'good'));

type Role = 'buyer' | 'seller' | 'admin';
const user = (
  overrides: Partial<{
    role: Role;
    totp_enabled: boolean;
    email_verified: boolean;
    recovery_codes_left: number | null;
  }> = {},
) => ({
  id: 'u1',
  username: 'alice',
  email: 'alice@example.com',
  full_name: 'Alice Example',
  role: 'buyer' as Role,
  email_verified: true,
  totp_enabled: false,
  country: 'Portugal',
  phone: null,
  created_at: '2026-11-01T10:00:00.000Z',
  recovery_codes_left: null as number | null,
  ...overrides,
});
const codes = ['AAAA-BBBB-CCCC-DDDD', '1111-2222-3333-4444'];
const newCodes = ['EEEE-FFFF-0000-1111', '2222-3333-4444-5555', '6666-7777-8888-9999'];
const setupAnswer = {
  secret: 'JBSWY3DPEHPK3PXP',
  otpauth_url: 'otpauth://totp/Escrow:alice?secret=JBSWY3DPEHPK3PXP',
  qr_code_url: 'data:image/png;base64,iVBORw0KGgo=',
};

/** A server holding one account: 2FA and role change as the real one would change them. */
function accountServer(initial = user()) {
  let me = { ...initial };
  return (request: SentRequest) => {
    const { method, path, body } = request;
    const form = body as Record<string, string>;
    if (path === '/api/auth/me') return { status: 200, body: me };
    if (method !== 'POST') return undefined;
    switch (path) {
      case '/api/profile/switch-role':
        me = { ...me, role: form.new_role as Role };
        return { status: 200, body: me };
      case '/api/auth/setup-2fa':
        return { status: 200, body: setupAnswer };
      case '/api/auth/verify-2fa':
        if (form.totp_code !== '123456')
          return { status: 422, body: { detail: 'Invalid 2FA code', code: 'totp_invalid' } };
        me = { ...me, totp_enabled: true, recovery_codes_left: codes.length };
        return { status: 200, body: { detail: '2FA enabled.', recovery_codes: codes } };
      case '/api/auth/disable-2fa':
        if (form.totp_code !== '654321')
          return { status: 422, body: { detail: 'Invalid 2FA code', code: 'totp_invalid' } };
        me = { ...me, totp_enabled: false, recovery_codes_left: null };
        return { status: 200, body: { detail: '2FA disabled' } };
      case '/api/auth/recovery-codes':
        if (form.totp_code !== '246810')
          return { status: 422, body: { detail: 'Invalid 2FA code', code: 'totp_invalid' } };
        me = { ...me, recovery_codes_left: newCodes.length };
        return { status: 200, body: { detail: 'New recovery codes made', recovery_codes: newCodes } };
      case '/api/auth/change-password':
        return { status: 200, body: { detail: 'Password changed; your other sessions were signed out' } };
      default:
        return undefined;
    }
  };
}

describe('Profile, General tab', () => {
  it('shows who the user is, with the e-mail verification state and the day they joined', async () => {
    renderApp('/profile', accountServer(user({ email_verified: false })));
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' })).toBeTruthy();
    expect(screen.getByText('Alice Example')).toBeTruthy();
    expect(screen.getByText('alice@example.com')).toBeTruthy();
    expect(screen.getByText('Not verified')).toBeTruthy();
    expect(screen.getByText('Portugal')).toBeTruthy();
    expect(screen.getByText('1 Nov 2026')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resend verification' })).toBeTruthy();
  });

  it('keeps Switch role disabled until another role is picked, then switches', async () => {
    const app = renderApp('/profile', accountServer());
    const button = await screen.findByRole('button', { name: 'Switch role' });
    expect(button.hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByRole('radio', { name: /Seller/ }));
    expect(button.hasAttribute('disabled')).toBe(false);
    await userEvent.click(screen.getByRole('radio', { name: /Buyer/ }));
    expect(button.hasAttribute('disabled')).toBe(true);

    await userEvent.click(screen.getByRole('radio', { name: /Seller/ }));
    await userEvent.click(button);
    expect(await screen.findByText('You are now a seller.')).toBeTruthy();
    expect(app.calls('POST', '/api/profile/switch-role').map((c) => c.body)).toEqual([{ new_role: 'seller' }]);
    expect(screen.getByRole('radio', { name: /Seller \(current\)/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Switch role' }).hasAttribute('disabled')).toBe(true);
  });

  it("shows the spec's fallback when the switch fails without a detail", async () => {
    const account = accountServer();
    renderApp('/profile', (request) =>
      request.path === '/api/profile/switch-role' ? { status: 500, body: {} } : account(request),
    );
    await userEvent.click(await screen.findByRole('radio', { name: /Seller/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Switch role' }));
    expect(await screen.findByText('Failed to switch role')).toBeTruthy();
  });

  it("tells an admin 'Admin role cannot be changed' and offers no switch", async () => {
    renderApp('/profile', accountServer(user({ role: 'admin' })));
    expect(await screen.findByText('Admin role cannot be changed')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Switch role' })).toBeNull();
    expect(screen.queryByRole('radio')).toBeNull();
  });
});

describe('Profile, Security tab: 2FA', () => {
  it('sets up 2FA with the QR and the key, refuses a wrong code, shows the recovery codes once, then turns it off with a code', async () => {
    const app = renderApp('/profile?tab=security', accountServer());
    expect((await screen.findByRole('tab', { name: 'Security' })).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Off')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Set up 2FA' }));
    const qr = await screen.findByRole('img', { name: /QR code/ });
    expect(document.activeElement).toBe(
      screen.getByRole('heading', { name: 'Add this account to your authenticator app' }),
    );
    expect(qr.getAttribute('src')).toBe(setupAnswer.qr_code_url);
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP')).toBeTruthy();
    const codeField = screen.getByLabelText(/Code from the app/);
    expect(codeField.getAttribute('maxlength')).toBe('6');

    await userEvent.click(screen.getByRole('button', { name: 'Verify and turn on 2FA' }));
    expect(await screen.findByText('Enter the code from your authenticator app')).toBeTruthy();
    expect(app.calls('POST', '/api/auth/verify-2fa')).toHaveLength(0);

    await userEvent.type(codeField, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and turn on 2FA' }));
    expect(await screen.findByText('Invalid 2FA code')).toBeTruthy();

    await userEvent.clear(codeField);
    await userEvent.type(codeField, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and turn on 2FA' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(list.textContent).toContain(codes[0]);
    expect(list.textContent).toContain(codes[1]);
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Your recovery codes' }));
    expect(screen.getByText(/From your next sign-in you will be asked for the code/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy codes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Download \.txt/ })).toBeTruthy();
    expect(app.calls('POST', '/api/auth/verify-2fa').at(-1)?.body).toEqual({ totp_code: '123456' });
    await waitFor(() => expect(screen.getByText('On')).toBeTruthy());

    await userEvent.click(screen.getByRole('button', { name: 'I have saved my codes' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Two-factor authentication (2FA)' }));
    const disableField = screen.getByLabelText(/2FA code or recovery code/);
    await userEvent.type(disableField, '111111');
    await userEvent.click(screen.getByRole('button', { name: 'Disable 2FA' }));
    expect(await screen.findByText('Invalid 2FA code')).toBeTruthy();
    await userEvent.clear(disableField);
    await userEvent.type(disableField, '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Disable 2FA' }));
    expect(await screen.findByText(/2FA disabled/)).toBeTruthy();
    expect(screen.getByText('Off')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Set up 2FA' })).toBeTruthy();
  });

  it("says 'Failed to setup 2FA' when setting up fails without a detail, and the server's detail when there is one", async () => {
    const refusal: { detail?: string } = {};
    const account = accountServer();
    renderApp('/profile?tab=security', (request) =>
      request.path === '/api/auth/setup-2fa' ? { status: 409, body: { ...refusal } } : account(request),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Set up 2FA' }));
    expect(await screen.findByText('Failed to setup 2FA')).toBeTruthy();
    refusal.detail = '2FA is already enabled; disable it first to set up a new device';
    await userEvent.click(screen.getByRole('button', { name: 'Set up 2FA' }));
    expect(await screen.findByText(refusal.detail)).toBeTruthy();
  });

  it('says how many recovery codes are left and makes new ones in a dialog that asks for a code, then gives focus back', async () => {
    const app = renderApp('/profile?tab=security', accountServer(user({ totp_enabled: true, recovery_codes_left: 1 })));
    expect(await screen.findByText(/1 recovery code left/)).toBeTruthy();
    const opener = screen.getByRole('button', { name: 'New recovery codes' });
    await userEvent.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'New recovery codes' });
    expect(dialog.textContent).toContain('Every recovery code you have now stops working');

    await userEvent.click(screen.getByRole('button', { name: 'Make new codes' }));
    expect(await screen.findByText('Enter the code from your authenticator app')).toBeTruthy();
    expect(app.calls('POST', '/api/auth/recovery-codes')).toHaveLength(0);
    const field = screen.getByLabelText(/Code from the app/);
    await userEvent.type(field, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Make new codes' }));
    expect(await screen.findByText('Invalid 2FA code')).toBeTruthy();

    await userEvent.clear(field);
    await userEvent.type(field, '246810');
    await userEvent.click(screen.getByRole('button', { name: 'Make new codes' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    for (const code of newCodes) expect(list.textContent).toContain(code);
    expect(app.calls('POST', '/api/auth/recovery-codes').at(-1)?.body).toEqual({ totp_code: '246810' });
    expect(screen.getByText('New recovery codes made. The old ones no longer work.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy codes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Download \.txt/ })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Your recovery codes' }));
    await waitFor(() => expect(screen.getByText(/3 recovery codes left/)).toBeTruthy());

    await userEvent.click(screen.getByRole('button', { name: 'I have saved my codes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New recovery codes' }));
  });

  it("says 'Failed to disable 2FA' when turning it off fails without a detail", async () => {
    const account = accountServer(user({ totp_enabled: true }));
    renderApp('/profile?tab=security', (request) =>
      request.path === '/api/auth/disable-2fa' ? { status: 500, body: {} } : account(request),
    );
    await userEvent.type(await screen.findByLabelText(/2FA code or recovery code/), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Disable 2FA' }));
    expect(await screen.findByText('Failed to disable 2FA')).toBeTruthy();
  });
});

describe('Profile, Security tab: password', () => {
  it('checks the confirmation before sending, then says the other sessions were signed out', async () => {
    const app = renderApp('/profile?tab=security', accountServer());
    await userEvent.type(await screen.findByLabelText(/Current password/), 'old password');
    await userEvent.type(screen.getByLabelText(/^New password/), 'new password 1');
    await userEvent.type(screen.getByLabelText(/Confirm new password/), 'new password 2');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Passwords do not match')).toBeTruthy();
    expect(app.calls('POST', '/api/auth/change-password')).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText(/Confirm new password/));
    await userEvent.type(screen.getByLabelText(/Confirm new password/), 'new password 1');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(/your other sessions were signed out/)).toBeTruthy();
    expect(app.calls('POST', '/api/auth/change-password')[0]?.body).toEqual({
      current_password: 'old password',
      new_password: 'new password 1',
    });
  });
});
