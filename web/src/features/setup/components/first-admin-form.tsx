import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { firstAdminSchema } from '../../../../../contract/user-requests.ts';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { type FirstAdminCreated, type FirstAdminInput, useCreateFirstAdmin } from '../api/create-first-admin.ts';

/** Step 1: the first admin's account. The e-mail counts as confirmed: the operator typed it. */
export function FirstAdminForm({ token, onCreated }: { token: string; onCreated: (created: FirstAdminCreated) => void }) {
  const create = useCreateFirstAdmin();
  const { register, handleSubmit, formState } = useForm<FirstAdminInput>({
    resolver: zodResolver(firstAdminSchema),
    defaultValues: { token, full_name: '', username: '', email: '', password: '', confirm_password: '' },
  });
  const { errors } = formState;
  const submit = handleSubmit((values) => create.mutate(values, { onSuccess: onCreated }));

  return (
    <form className="form" onSubmit={submit} noValidate>
      {create.isError && <Message tone="error">{messageOf(create.error, 'The admin account could not be created')}</Message>}
      <Field label="Full name" required error={errors.full_name?.message}>
        <input type="text" autoComplete="name" {...register('full_name')} />
      </Field>
      <Field label="Username" required error={errors.username?.message} hint="3 to 32 letters, digits, dots, dashes or underscores.">
        <input type="text" autoComplete="username" autoCapitalize="none" {...register('username')} />
      </Field>
      <Field label="Email" required error={errors.email?.message} hint="Where admin notices go: payments to check, disputes, a low address pool.">
        <input type="email" autoComplete="email" {...register('email')} />
      </Field>
      <div className="form-row">
        <Field label="Password" required error={errors.password?.message} hint="At least 8 characters; a long passphrase is best.">
          <input type="password" autoComplete="new-password" {...register('password')} />
        </Field>
        <Field label="Confirm password" required error={errors.confirm_password?.message}>
          <input type="password" autoComplete="new-password" {...register('confirm_password')} />
        </Field>
      </div>
      <Button type="submit" busy={create.isPending}>
        Create admin account
      </Button>
    </form>
  );
}
