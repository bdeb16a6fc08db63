import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation } from 'react-router-dom';
import type { z } from 'zod';
import { loginSchema } from '../../../../../contract/user-requests.ts';
import { ApiError, api } from '../../../api/client.ts';
import { useAuth } from '../../../auth/auth-context.tsx';
import type { LoginState } from '../../../auth/session-redirect.tsx';
import { usePageMeta } from '../../../components/page-meta.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';

type LoginInput = z.input<typeof loginSchema>;

export function LoginPage() {
  usePageMeta('Sign in', 'Sign in to your escrow account.');
  const { user, signIn, sessionNotice } = useAuth();
  const location = useLocation();
  const [needsCode, setNeedsCode] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const arrival = (location.state as LoginState | null) ?? {};
  const { register, handleSubmit, formState, setFocus } = useForm<LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: '', password: '', totp_code: '' },
  });
  const { errors, isSubmitting } = formState;
  // One place decides where a signed-in user goes from here: signing in only sets the user, so a second
  // navigation cannot race this one (CI once saw the dashboard win over the page the user came from).
  if (user) return <Navigate to={arrival.from && arrival.from !== '/login' ? arrival.from : '/dashboard'} replace />;

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const { access_token } = await api<{ access_token: string }>('/auth/login', {
        json: values,
        fallback: 'Login failed',
      });
      await signIn(access_token);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'totp_required') {
        setNeedsCode(true);
        setFailure('Please enter your 2FA code');
        setTimeout(() => setFocus('totp_code'), 0);
        return;
      }
      setFailure(error instanceof ApiError ? error.message : 'Login failed');
    }
  });

  return (
    <section className="card narrow center-block">
      <h1>Sign in</h1>
      <form className="form" onSubmit={submit} noValidate>
        {sessionNotice === 'expired' && !failure && (
          <Message tone="info">
            Your session has ended: it expired or was signed out from another place. Sign in again to continue.
          </Message>
        )}
        {failure && <Message tone={failure === 'Please enter your 2FA code' ? 'info' : 'error'}>{failure}</Message>}
        <Field label="Username" required error={errors.username?.message}>
          <input type="text" autoComplete="username" autoCapitalize="none" {...register('username')} />
        </Field>
        <Field label="Password" required error={errors.password?.message}>
          <input type="password" autoComplete="current-password" {...register('password')} />
        </Field>
        {needsCode && (
          <Field
            label="2FA code"
            error={errors.totp_code?.message}
            hint="The 6-digit code from your authenticator app, or one of your recovery codes."
          >
            <input
              type="text"
              inputMode="text"
              autoComplete="one-time-code"
              placeholder="Enter 6-digit code"
              maxLength={32}
              {...register('totp_code')}
            />
          </Field>
        )}
        <Button type="submit" busy={isSubmitting}>
          Sign in
        </Button>
      </form>
      <p className="form-foot">
        No account yet? <Link to="/register">Create one</Link>. Forgot your password?{' '}
        <Link to="/contact">Contact support</Link>.
      </p>
    </section>
  );
}
