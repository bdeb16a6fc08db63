// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { resetApp } from '../../../testing/render-app.tsx';
import { renderConsole } from '../shared/render-console.tsx';

afterEach(resetApp);

const HASH = 'f'.repeat(64);
const chain = (ok: boolean) => ({
  head: { position: 42, hash: HASH },
  ok,
  events: 42,
  first_break: ok ? null : { position: 17 },
  verified_up_to: ok ? 42 : 16,
  broken: null,
  last_check_at: null,
  last_full_check_at: null,
});

describe('Ledger', () => {
  it('shows the head to publish and the chain check; replay reports a match per read model', async () => {
    const app = renderConsole('/admin?tab=ledger', ({ method, path }) => {
      if (path === '/api/admin/chain') return { status: 200, body: chain(true) };
      if (path.startsWith('/api/admin/events?')) return { status: 200, body: [] };
      if (method === 'POST' && path === '/api/admin/replay')
        return {
          status: 200,
          body: {
            events: 42,
            seconds: 0.5,
            eventsPerSecond: 84,
            match: true,
            tables: [{ table: 'escrows', liveRows: 3, rebuiltRows: 3, match: true, onlyLive: [], onlyRebuilt: [] }],
          },
        };
      return undefined;
    });
    expect(await screen.findByText(`42:${HASH}`)).toBeTruthy();
    expect(screen.getByText(/All 42 events verify/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Replay the log' }));
    expect(await screen.findByText(/Match: 42 events replayed/)).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Read models compared' })).getByText('escrows')).toBeTruthy();
    expect(app.calls('POST')[0]).toEqual({ method: 'POST', path: '/api/admin/replay', body: { swap: false } });
    expect(await screen.findByText('No events match.')).toBeTruthy();
  });

  it('a broken chain is said plainly, with where it breaks', async () => {
    renderConsole('/admin?tab=ledger', ({ path }) => {
      if (path === '/api/admin/chain') return { status: 200, body: chain(false) };
      if (path.startsWith('/api/admin/events?')) return { status: 200, body: [] };
      return undefined;
    });
    expect((await screen.findByText(/The chain is broken at position 17/)).closest('[role="alert"]')).toBeTruthy();
  });

  it('filters the events by type and pages after the last position shown', async () => {
    const event = (position: number) => ({
      position,
      event_id: `e${position}`,
      stream_id: 'settings:pricing',
      stream_type: 'settings',
      stream_version: position,
      type: 'BtcRateSet',
      data: { rate_cents: 5_000_000 },
      metadata: { actor: 'a1', request_id: 'r' },
      occurred_at: '2026-01-01T00:00:00Z',
      prev_hash: HASH,
      hash: HASH,
    });
    const app = renderConsole('/admin?tab=ledger', ({ path }) => {
      if (path === '/api/admin/chain') return { status: 200, body: chain(true) };
      if (path.startsWith('/api/admin/events?'))
        return {
          status: 200,
          body: path.includes('after=50') ? [event(51)] : Array.from({ length: 50 }, (_, i) => event(i + 1)),
        };
      return undefined;
    });
    await userEvent.type(await screen.findByLabelText('Event type'), 'BtcRateSet');
    await userEvent.click(screen.getByRole('button', { name: 'Show events' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(await screen.findByText('51')).toBeTruthy();
    expect(
      app
        .calls('GET', '/api/admin/events?')
        .map((c) => c.path)
        .slice(-2),
    ).toEqual([
      '/api/admin/events?limit=50&after=0&type=BtcRateSet',
      '/api/admin/events?limit=50&after=50&type=BtcRateSet',
    ]);
  });
});
