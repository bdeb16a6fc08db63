import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { registerSchema } from '../../../../../contract/user-requests.ts';
import { api, messageOf } from '../../../api/client.ts';
import { useAuth } from '../../../auth/auth-context.tsx';
import { AccountFields } from '../../../components/account-fields.tsx';
import { usePageMeta } from '../../../components/page-meta.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';

type RegisterInput = z.input<typeof registerSchema>;

export function RegisterPage() {
  usePageMeta('Create your account', 'Open a free account to buy or sell with Bitcoin escrow.');
  const { user } = useAuth();
  const navigate = useNavigate();
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<RegisterInput>({
    resolver: zodResolver(registerSchema),
    defaultValues: {
      full_name: '',
      username: '',
      email: '',
      password: '',
      confirm_password: '',
      role: 'buyer',
      country: '',
      phone: '',
    },
  });
  const { register, handleSubmit, formState } = form;
  const { errors, isSubmitting } = formState;
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate('/login'), 2000);
    return () => clearTimeout(timer);
  }, [done, navigate]);
  if (user) return <Navigate to="/dashboard" replace />;

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await api<{ detail: string }>('/auth/register', { json: values, fallback: 'Registration failed' });
      setDone(answer.detail);
    } catch (error) {
      setFailure(messageOf(error, 'Registration failed'));
    }
  });

  return (
    <section className="card narrow center-block">
      <h1>Create your account</h1>
      <p>We will e-mail you a link to confirm your address; escrows opened with it appear once it is confirmed.</p>
      {done ? (
        <Message tone="success">{done} Taking you to sign in...</Message>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          {failure && <Message tone="error">{failure}</Message>}
          <FormProvider {...form}>
            <AccountFields passwordHint="At least 8 characters." />
          </FormProvider>
          <fieldset className="choice-group">
            <legend>I mainly want to</legend>
            <label className="choice">
              <input type="radio" value="buyer" {...register('role')} /> Buy (I pay into escrow)
            </label>
            <label className="choice">
              <input type="radio" value="seller" {...register('role')} /> Sell (I get paid from escrow)
            </label>
          </fieldset>
          <div className="form-row">
            <Field label="Country" error={errors.country?.message}>
              <input type="text" autoComplete="country-name" {...register('country')} />
            </Field>
            <Field label="Phone" error={errors.phone?.message}>
              <input type="tel" autoComplete="tel" {...register('phone')} />
            </Field>
          </div>
          <Button type="submit" busy={isSubmitting}>
            Create account
          </Button>
        </form>
      )}
      <p className="form-foot">
        Already have an account? <Link to="/login">Sign in</Link>.
      </p>
    </section>
  );
}
