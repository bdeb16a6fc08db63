import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { useResendVerification } from '../api/resend-verification.ts';

/** Said before the create form, not after it: an unconfirmed e-mail address cannot open an escrow. */
export function UnverifiedNotice({ email, onClose }: { email: string; onClose: () => void }) {
  const resend = useResendVerification();
  return (
    <div className="form">
      <div className="message message-info" role="alert">
        <p>
          Confirm your e-mail address <strong>{email}</strong> first: open the link we sent you, then come back to
          create the escrow.
        </p>
      </div>
      {resend.isSuccess && <p className="small">A new link is on its way; check your inbox.</p>}
      {resend.isError && <p className="field-error">{messageOf(resend.error, 'Failed to send the link again')}</p>}
      <div className="dialog-actions">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
        {!resend.isSuccess && (
          <Button busy={resend.isPending} onClick={() => resend.mutate()}>
            Resend the link
          </Button>
        )}
      </div>
    </div>
  );
}
