// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { QueryState } from './query-state.tsx';

afterEach(cleanup);

const base = { data: undefined, error: null, isPending: false, isError: false, isRefetching: false, refetch: vi.fn() };

describe('QueryState', () => {
  it('says Loading... while pending', () => {
    render(<QueryState query={{ ...base, isPending: true }}>{() => 'content'}</QueryState>);
    expect(screen.getByRole('status').textContent).toBe('Loading...');
  });

  it("shows the server's detail and retries on request", async () => {
    const refetch = vi.fn();
    render(
      <QueryState query={{ ...base, isError: true, error: new ApiError(503, 'The database is unavailable'), refetch }}>
        {() => 'content'}
      </QueryState>,
    );
    expect(screen.getByRole('alert').textContent).toContain('The database is unavailable');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('shows the empty state, else the content', () => {
    const { rerender } = render(
      <QueryState
        query={{ ...base, data: [] as string[] }}
        isEmpty={(items) => items.length === 0}
        empty="No escrows yet"
      >
        {(items) => items.join(',')}
      </QueryState>,
    );
    expect(screen.getByText('No escrows yet')).toBeTruthy();
    rerender(
      <QueryState query={{ ...base, data: ['a', 'b'] }} isEmpty={(items) => items.length === 0} empty="No escrows yet">
        {(items) => items.join(',')}
      </QueryState>,
    );
    expect(screen.getByText('a,b')).toBeTruthy();
  });
});
