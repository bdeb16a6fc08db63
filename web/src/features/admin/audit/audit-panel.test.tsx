// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { resetApp } from '../../../testing/render-app.tsx';
import { renderConsole } from '../shared/render-console.tsx';
import type { AuditEntry } from './api/get-audit-logs.ts';

afterEach(resetApp);

const ESCROW = '0b1c2d3e-0000-4000-8000-000000000001';
const SAM = '0b1c2d3e-0000-4000-8000-000000000003';
const entries: AuditEntry[] = [
  {
    id: 9,
    action_type: 'PartyBound',
    timestamp: '2026-01-02T09:05:00Z',
    object_type: 'escrow',
    object_id: ESCROW,
    actor: 'system',
    actor_user_id: null,
    actor_username: null,
    object_name: null,
    summary: 'made sam the seller of escrow 0b1c2d3e',
  },
  {
    id: 8,
    action_type: 'EmailVerified',
    timestamp: '2026-01-02T09:00:00Z',
    object_type: 'user',
    object_id: SAM,
    actor: SAM,
    actor_user_id: SAM,
    actor_username: 'sam',
    object_name: 'sam',
    summary: 'verified the e-mail of sam',
  },
];

describe('Audit', () => {
  it('shows each entry as a sentence with users by username, the event type beneath', async () => {
    renderConsole('/admin?tab=audit', ({ path }) =>
      path.startsWith('/api/admin/audit-logs') ? { status: 200, body: entries } : undefined,
    );
    const bound = (await screen.findByText('Made sam the seller of escrow 0b1c2d3e', {}, { timeout: 5000 })).closest(
      'tr',
    )!;
    expect(within(bound).getByText('PartyBound')).toBeTruthy();
    expect(within(bound).getByText('system')).toBeTruthy();
    const verified = screen.getByText('Verified the e-mail of sam').closest('tr')!;
    expect(verified.textContent).not.toContain(SAM.slice(0, 8));
    expect(within(verified).getByText('user sam')).toBeTruthy(); // the object
    expect(within(verified).getByText('sam')).toBeTruthy(); // the actor
  });

  it('filters by an actor given by username', async () => {
    const app = renderConsole('/admin?tab=audit', ({ path }) =>
      path.startsWith('/api/admin/audit-logs') ? { status: 200, body: entries } : undefined,
    );
    await userEvent.type(await screen.findByLabelText(/Actor/, {}, { timeout: 5000 }), 'sam');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    await screen.findByText('Made sam the seller of escrow 0b1c2d3e');
    expect(app.calls('GET', '/api/admin/audit-logs').at(-1)!.path).toBe('/api/admin/audit-logs?limit=50&actor=sam');
  });
});
