import { useFormContext } from 'react-hook-form';
import { Field } from './ui/field.tsx';

/** The fields every new account is made of, in a form that has them among its own. */
export interface AccountFieldValues {
  full_name: string;
  username: string;
  email: string;
  password: string;
  confirm_password: string;
}

interface AccountFieldsProps {
  /** What the address is for, when it is for more than signing in. */
  emailHint?: string;
  passwordHint: string;
}

/**
 * Name, username, e-mail and the password twice, wired to the react-hook-form around them (a FormProvider): the
 * sign-up form and the first admin's form make an account alike.
 */
export function AccountFields({ emailHint, passwordHint }: AccountFieldsProps) {
  const {
    register,
    formState: { errors },
  } = useFormContext<AccountFieldValues>();
  return (
    <>
      <Field label="Full name" required error={errors.full_name?.message}>
        <input type="text" autoComplete="name" {...register('full_name')} />
      </Field>
      <Field
        label="Username"
        required
        error={errors.username?.message}
        hint="3 to 32 letters, digits, dots, dashes or underscores."
      >
        <input type="text" autoComplete="username" autoCapitalize="none" {...register('username')} />
      </Field>
      <Field label="Email" required error={errors.email?.message} hint={emailHint}>
        <input type="email" autoComplete="email" {...register('email')} />
      </Field>
      <div className="form-row">
        <Field label="Password" required error={errors.password?.message} hint={passwordHint}>
          <input type="password" autoComplete="new-password" {...register('password')} />
        </Field>
        <Field label="Confirm password" required error={errors.confirm_password?.message}>
          <input type="password" autoComplete="new-password" {...register('confirm_password')} />
        </Field>
      </div>
    </>
  );
}
