import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { useResendVerification } from '../api/resend-verification.ts';

/** While the e-mail is unverified: why it matters here, and a way to get the link again. */
export function VerifyEmailBanner({ email }: { email: string }) {
  const resend = useResendVerification();
  return (
    <div className="message message-info verify-banner" role="status">
      <p>
        Confirm your e-mail address <strong>{email}</strong> with the link we sent you. Until then you cannot open
        escrows, and escrows others open with this address do not show here.
      </p>
      {resend.isSuccess ? (
        <p className="small">A new link is on its way; check your inbox.</p>
      ) : (
        <Button variant="secondary" busy={resend.isPending} onClick={() => resend.mutate()}>
          Resend the link
        </Button>
      )}
      {resend.isError && <p className="field-error">{messageOf(resend.error, 'Failed to send the link again')}</p>}
    </div>
  );
}
