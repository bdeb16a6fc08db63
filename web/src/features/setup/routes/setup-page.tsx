import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { messageOf } from '../../../api/client.ts';
import { useAuth } from '../../../auth/auth-context.tsx';
import { usePageMeta } from '../../../components/page-meta.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Loading } from '../../../components/ui/loading.tsx';
import { Message } from '../../../components/ui/message.tsx';
import type { FirstAdminCreated } from '../api/create-first-admin.ts';
import { useSetupStatus } from '../api/setup-status.ts';
import { FirstAdminForm } from '../components/first-admin-form.tsx';
import { NextSteps } from '../components/next-steps.tsx';
import { TwoFactorStep } from '../components/two-factor-step.tsx';
import '../setup.css';

type Step = 'account' | 'two-factor' | 'next';

/** /setup?token=...: the one-time page, linked from a fresh server's terminal, where the first admin is created. */
export function SetupPage() {
  usePageMeta('Set up the service', 'Create the first admin account of this escrow service.');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const status = useSetupStatus(token);
  const { signIn, user } = useAuth();
  const [step, setStep] = useState<Step>('account');

  const created = async (answer: FirstAdminCreated) => {
    await signIn(answer.access_token);
    setStep('two-factor');
  };

  return (
    <section className="card narrow center-block setup-page">
      <h1>Set up the service</h1>
      <p className="setup-progress" aria-label="Progress">
        Step {step === 'account' ? 1 : step === 'two-factor' ? 2 : 3} of 3:{' '}
        {step === 'account'
          ? 'the first admin'
          : step === 'two-factor'
            ? 'two-factor authentication'
            : 'rate and addresses'}
      </p>
      {step === 'account' && <AccountStep token={token} status={status} onCreated={created} />}
      {step === 'two-factor' && (
        <TwoFactorStep
          required={status.data?.admin_2fa_required ?? true}
          username={user?.username ?? ''}
          onDone={() => setStep('next')}
        />
      )}
      {step === 'next' && <NextSteps />}
    </section>
  );
}

function AccountStep({
  token,
  status,
  onCreated,
}: {
  token: string;
  status: ReturnType<typeof useSetupStatus>;
  onCreated: (answer: FirstAdminCreated) => void;
}) {
  if (!token) {
    return (
      <Message tone="error">
        This page needs the link the server printed when it started (it ends with ?token=...). Run npm start in a
        terminal to see it.
      </Message>
    );
  }
  if (status.isPending) return <Loading label="Checking the setup link..." />;
  if (status.isError) {
    return (
      <>
        <Message tone="error">{messageOf(status.error, 'Could not check this setup link')}</Message>
        <Button variant="secondary" onClick={() => void status.refetch()}>
          Try again
        </Button>
      </>
    );
  }
  if (!status.data.valid) {
    return (
      <Message tone="info">
        This setup link is no longer valid: it was used, or an admin exists already. <Link to="/login">Sign in</Link>{' '}
        instead; an operator can print a new link with <code>npm run cli -- setup-link</code> only while no admin
        exists.
      </Message>
    );
  }
  return (
    <>
      <p>Create the first admin account. This link works once: after this, admins are added from the console.</p>
      <FirstAdminForm token={token} onCreated={onCreated} />
    </>
  );
}
