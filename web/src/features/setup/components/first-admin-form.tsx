import { zodResolver } from '@hookform/resolvers/zod';
import { FormProvider, useForm } from 'react-hook-form';
import { firstAdminSchema } from '../../../../../contract/user-requests.ts';
import { messageOf } from '../../../api/client.ts';
import { AccountFields } from '../../../components/account-fields.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { type FirstAdminCreated, type FirstAdminInput, useCreateFirstAdmin } from '../api/create-first-admin.ts';

/** Step 1: the first admin's account. The e-mail counts as confirmed: the operator typed it. */
export function FirstAdminForm({
  token,
  onCreated,
}: {
  token: string;
  onCreated: (created: FirstAdminCreated) => void;
}) {
  const create = useCreateFirstAdmin();
  const form = useForm<FirstAdminInput>({
    resolver: zodResolver(firstAdminSchema),
    defaultValues: { token, full_name: '', username: '', email: '', password: '', confirm_password: '' },
  });
  const submit = form.handleSubmit((values) => create.mutate(values, { onSuccess: onCreated }));

  return (
    <form className="form" onSubmit={submit} noValidate>
      {create.isError && (
        <Message tone="error">{messageOf(create.error, 'The admin account could not be created')}</Message>
      )}
      <FormProvider {...form}>
        <AccountFields
          emailHint="Where admin notices go: payments to check, disputes, a low address pool."
          passwordHint="At least 8 characters; a long passphrase is best."
        />
      </FormProvider>
      <Button type="submit" busy={create.isPending}>
        Create admin account
      </Button>
    </form>
  );
}
