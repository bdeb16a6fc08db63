// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { TwoFactorStep } from './two-factor-step.tsx';

afterEach(cleanup);

const renderStep = (required: boolean) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <TwoFactorStep required={required} username="admin" onDone={() => undefined} />
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('the 2FA step of /setup', () => {
  it('says 2FA is required when the server requires it, and where to set it up later', () => {
    renderStep(true);
    expect(screen.getByText(/Required on this server/)).toBeTruthy();
    expect(screen.queryByText(/Recommended/)).toBeNull();
    expect(screen.getByRole('link', { name: 'your profile' }).getAttribute('href')).toBe('/profile');
  });

  it('recommends it when the server does not require it', () => {
    renderStep(false);
    expect(screen.getByText(/Recommended now/)).toBeTruthy();
    expect(screen.queryByText(/Required on this server/)).toBeNull();
  });
});
