import type { Me as CurrentUser } from '../../../../../contract/users.ts';
import { ChangePasswordForm } from './change-password-form.tsx';
import { TwoFactorSection } from './two-factor-section.tsx';

export function SecurityTab({ user, mustChangePassword }: { user: CurrentUser; mustChangePassword: boolean }) {
  return mustChangePassword ? (
    <ChangePasswordForm mustChange />
  ) : (
    <>
      <TwoFactorSection user={user} />
      <ChangePasswordForm mustChange={false} />
    </>
  );
}
