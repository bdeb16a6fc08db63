import type { ReactNode } from 'react';
import { Button } from './button.tsx';
import { Message } from './message.tsx';
import { Modal } from './modal.tsx';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  confirmLabel: string;
  cancelLabel?: string;
  tone?: 'primary' | 'danger';
  busy?: boolean;
  /** The refusal to show inside the dialog, so the person can correct and confirm again. */
  error?: string | null;
  onConfirm: () => void;
  /** What the action involves (amounts, addresses) and any fields it needs (a reason, a 2FA code). */
  children?: ReactNode;
}

/**
 * Asks before an action that cannot be taken back. The confirm button submits the dialog's form, so Enter in a field
 * confirms; Cancel and Escape close it and focus goes back to what opened it (Radix).
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  tone = 'primary',
  busy = false,
  error,
  onConfirm,
  children,
}: ConfirmDialogProps) {
  return (
    <Modal
      open={open}
      onOpenChange={(next) => !busy && onOpenChange(next)}
      title={title}
      {...(description ? { description } : {})}
    >
      <form
        className="confirm-form"
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm();
        }}
      >
        {children}
        {error && <Message tone="error">{error}</Message>}
        <div className="dialog-actions">
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button type="submit" variant={tone} busy={busy}>
            {confirmLabel}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
