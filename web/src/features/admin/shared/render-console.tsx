/** Test helper: the console rendered for a signed-in admin against a scripted server (see testing/render-app.tsx). */
import { configure } from '@testing-library/react';
import { renderApp, type Server } from '../../../testing/render-app.tsx';

// Each panel is a lazy chunk: its first render in a test file waits for the import, slower on a busy machine.
configure({ asyncUtilTimeout: 5000 });

export const ADMIN = {
  id: 'a1',
  username: 'root',
  email: 'root@example.com',
  email_verified: true,
  full_name: 'Root Admin',
  role: 'admin',
  country: null,
  phone: null,
  totp_enabled: false,
};

/** What the tab counts ask on every console page, answered as an empty store unless the test's server answers first. */
const quietCounts: Server = ({ method, path }) => {
  if (method !== 'GET') return undefined;
  if (
    [
      '/api/admin/pending-verifications',
      '/api/admin/disputes',
      '/api/admin/reviews/pending',
      '/api/admin/reviews',
    ].includes(path)
  )
    return { status: 200, body: [] };
  if (path === '/api/admin/addresses') return { status: 200, body: [] };
  if (path === '/api/health') return { status: 200, body: { status: 'ok', version: '0.0.0', chain: 'ok' } };
  if (path === '/api/site')
    return {
      status: 200,
      body: {
        support_email: 'support@example.com',
        support_hours: 'Mon-Fri',
        pgp_key_configured: false,
        bitcoin_network: 'mainnet',
      },
    };
  return undefined;
};

export function renderConsole(
  path: string,
  server: Server = () => undefined,
  options: { totp?: boolean; role?: string } = {},
) {
  localStorage.setItem('escrow.session', 'admin-token');
  const me = { ...ADMIN, totp_enabled: options.totp ?? false, role: options.role ?? 'admin' };
  return renderApp(path, (request) => {
    if (request.path === '/api/auth/me') return { status: 200, body: me };
    return server(request) ?? quietCounts(request);
  });
}
