import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { changePasswordSchema } from '../../../../../contract/user-requests.ts';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { useChangePassword } from '../api/change-password.ts';

const formSchema = changePasswordSchema
  .extend({
    current_password: z.string().min(1, 'current_password is required').max(256),
    confirm_password: z.string(),
  })
  .refine((v) => v.new_password === v.confirm_password, {
    message: 'Passwords do not match',
    path: ['confirm_password'],
  });
type FormInput = z.input<typeof formSchema>;

/** Change password; the server signs every other session out, and the form says so. */
export function ChangePasswordForm({ mustChange }: { mustChange: boolean }) {
  const change = useChangePassword();
  const { register, handleSubmit, formState, reset } = useForm<FormInput>({
    resolver: zodResolver(formSchema),
    defaultValues: { current_password: '', new_password: '', confirm_password: '' },
  });
  const { errors } = formState;
  const submit = handleSubmit(({ current_password, new_password }) =>
    change.mutate({ current_password, new_password }, { onSuccess: () => reset() }),
  );
  return (
    <section className="profile-section" aria-labelledby="password-heading" id="change-password">
      <h2 id="password-heading">Change password</h2>
      {mustChange && (
        <Message tone="error">
          An administrator reset your password. Choose a new one here to continue: until then the rest of your account
          stays locked.
        </Message>
      )}
      <form className="form" onSubmit={submit} noValidate>
        <Field
          label={mustChange ? 'Temporary password' : 'Current password'}
          required
          error={errors.current_password?.message}
        >
          <input type="password" autoComplete="current-password" {...register('current_password')} />
        </Field>
        <Field label="New password" required hint="At least 8 characters." error={errors.new_password?.message}>
          <input type="password" autoComplete="new-password" {...register('new_password')} />
        </Field>
        <Field label="Confirm new password" required error={errors.confirm_password?.message}>
          <input type="password" autoComplete="new-password" {...register('confirm_password')} />
        </Field>
        {change.isError && <Message tone="error">{messageOf(change.error, 'Failed to change password')}</Message>}
        {change.isSuccess && <Message tone="success">{change.data.detail}.</Message>}
        <p className="field-hint">
          Changing your password signs you out everywhere else; this session stays signed in.
        </p>
        <div>
          <Button type="submit" busy={change.isPending}>
            Change password
          </Button>
        </div>
      </form>
    </section>
  );
}
