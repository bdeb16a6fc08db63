import { type ReactNode, useState } from 'react';
import { messageOf } from '../../../api/client.ts';
import { useAuth } from '../../../auth/auth-context.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { TotpField } from '../../../components/ui/totp-field.tsx';
import { useResetState } from '../../../hooks/use-reset-state.ts';

interface ActionDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  confirmLabel: string;
  tone?: 'primary' | 'danger';
  /** The spec's 'Failed to …' text, shown when the server gives no detail. */
  fallback: string;
  /** A refusal found before calling the server (a missing reason); shown like the server's. */
  check?: () => string | null;
  /** Runs the call with the 2FA code (empty when the admin has 2FA off); resolves to the success notice. */
  run: (totpCode: string) => Promise<string>;
  onDone: (message: string) => void;
  /** False for the moderation of reviews, which is not one of the powers the server gates with a 2FA code. */
  gated?: boolean;
  children?: ReactNode;
}

/**
 * The confirmation every admin power goes through: what it involves (children), the admin's 2FA code when their
 * account has 2FA on (one field, the server wants a fresh code for every power), and the server's refusal inside
 * the dialog so the admin can correct and confirm again.
 */
export function ActionDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  tone = 'primary',
  fallback,
  check,
  run,
  onDone,
  gated = true,
  children,
}: ActionDialogProps) {
  const { user } = useAuth();
  const needsCode = gated && Boolean(user?.totp_enabled);
  const [code, setCode] = useResetState(open, () => '');
  const [error, setError] = useResetState<string | null>(open, () => null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    const refusal =
      check?.() ?? (needsCode && !/^\d{6}$/.test(code) ? 'Enter the 6-digit code from your authenticator app' : null);
    if (refusal) return setError(refusal);
    setBusy(true);
    setError(null);
    try {
      const message = await run(needsCode ? code : '');
      onOpenChange(false);
      onDone(message);
    } catch (failure) {
      setError(messageOf(failure, fallback));
      setCode('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      {...(description ? { description } : {})}
      confirmLabel={confirmLabel}
      tone={tone}
      busy={busy}
      error={error}
      onConfirm={() => void confirm()}
    >
      {children}
      {needsCode && <TotpField value={code} onChange={setCode} required label="Your 2FA code" />}
    </ConfirmDialog>
  );
}
