import { CheckCircle2, AlertCircle } from 'lucide-react';
import type { User as CurrentUser } from '../../../../../contract/users.ts';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useResendVerification } from '../api/resend-verification.ts';
import { RoleSwitch } from './role-switch.tsx';

function EmailStatus({ user }: { user: CurrentUser }) {
  const resend = useResendVerification();
  if (user.email_verified) {
    return (
      <span className="email-status email-verified">
        <CheckCircle2 size={16} aria-hidden="true" /> Verified
      </span>
    );
  }
  return (
    <div className="email-unverified-block">
      <span className="email-status email-unverified">
        <AlertCircle size={16} aria-hidden="true" /> Not verified
      </span>
      <p className="field-hint">
        Open the link we mailed you. Until then, escrows other people open with this address stay hidden from you.
      </p>
      <Button variant="secondary" busy={resend.isPending} disabled={resend.isSuccess} onClick={() => resend.mutate()}>
        Resend verification
      </Button>
      {resend.isSuccess && <Message tone="success">{resend.data.detail}</Message>}
      {resend.isError && (
        <Message tone="error">{messageOf(resend.error, 'Failed to send the verification mail')}</Message>
      )}
    </div>
  );
}

/** Who the user is (as the server knows them) and the role switch. */
export function GeneralTab({ user }: { user: CurrentUser }) {
  const rows: Array<[string, React.ReactNode]> = [
    ['Name', user.full_name],
    ['Username', user.username],
    [
      'E-mail',
      <>
        <span className="profile-email">{user.email}</span> <EmailStatus user={user} />
      </>,
    ],
    ['Country', user.country ?? <span className="muted">Not given</span>],
    ['Phone', user.phone ?? <span className="muted">Not given</span>],
    ['Joined', formatDate(user.created_at)],
  ];
  return (
    <>
      <section className="profile-section" aria-labelledby="account-heading">
        <h2 id="account-heading">Account</h2>
        <dl className="profile-details">
          {rows.map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <p className="field-hint">To change your name or e-mail address, contact support.</p>
      </section>
      <RoleSwitch user={user} />
    </>
  );
}
