// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog.tsx';

afterEach(cleanup);

function Harness({ onConfirm, error }: { onConfirm: () => void; error?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Release funds
      </button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Release 0.01000000 BTC?"
        confirmLabel="Release"
        onConfirm={onConfirm}
        error={error ?? null}
      >
        <p>To bc1qexample</p>
      </ConfirmDialog>
    </>
  );
}

describe('ConfirmDialog', () => {
  it('shows what the action involves, confirms once, and closes on cancel', async () => {
    const onConfirm = vi.fn();
    render(<Harness onConfirm={onConfirm} />);
    await userEvent.click(screen.getByRole('button', { name: 'Release funds' }));
    expect(screen.getByRole('dialog', { name: 'Release 0.01000000 BTC?' })).toBeTruthy();
    expect(screen.getByText('To bc1qexample')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Release' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('shows the refusal inside the dialog', async () => {
    render(<Harness onConfirm={() => undefined} error="Invalid 2FA code" />);
    await userEvent.click(screen.getByRole('button', { name: 'Release funds' }));
    expect(screen.getByRole('alert').textContent).toBe('Invalid 2FA code');
  });
});
