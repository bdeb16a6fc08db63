import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { api } from '../../../api/client.ts';
import { usePageMeta } from '../../../components/page-meta.ts';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { Loading } from '../../../components/ui/loading.tsx';
import { Message } from '../../../components/ui/message.tsx';

export function VerifyEmailPage() {
  usePageMeta('Confirm your e-mail address', 'Confirm the e-mail address of your escrow account.');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useMutation({
    mutationFn: () =>
      api<{ detail: string }>('/auth/verify-email', { json: { token }, fallback: 'This link could not be used' }),
  });
  const { mutate } = verify;
  // A link works once: never send it twice, even when effects run twice in development.
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    mutate();
  }, [token, mutate]);

  return (
    <section className="card narrow center-block">
      <h1>Confirm your e-mail address</h1>
      {!token && (
        <Message tone="error">
          This link has no token. Open the link from the e-mail we sent you, or ask for a new one after signing in.
        </Message>
      )}
      {verify.isPending && <Loading label="Confirming your address..." />}
      {verify.isSuccess && (
        <Message tone="success">{verify.data.detail}. Escrows opened with this address are now visible to you.</Message>
      )}
      {verify.isError && <Message tone="error">{verify.error.message}</Message>}
      <ButtonLink to="/login">Sign in</ButtonLink>
    </section>
  );
}
