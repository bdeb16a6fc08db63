import { useState } from 'react';
import type { User as CurrentUser } from '../../../../../contract/users.ts';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { type SwitchableRole, useSwitchRole } from '../api/switch-role.ts';

const roles: Array<{ value: SwitchableRole; label: string; hint: string }> = [
  { value: 'buyer', label: 'Buyer', hint: 'You pay into escrows and confirm receipt.' },
  { value: 'seller', label: 'Seller', hint: 'You deliver and are paid when the buyer confirms.' },
];

/** Buyer <-> seller (spec: admins cannot switch). The button is disabled until another role is picked. */
export function RoleSwitch({ user }: { user: CurrentUser }) {
  const switchRole = useSwitchRole();
  const [picked, setPicked] = useState<SwitchableRole | null>(null);
  const [done, setDone] = useState<string | null>(null);

  if (user.role === 'admin') {
    return (
      <section className="profile-section" aria-labelledby="role-heading">
        <h2 id="role-heading">Role</h2>
        <p>
          You are an <strong>admin</strong>.
        </p>
        <Message tone="info">Admin role cannot be changed</Message>
      </section>
    );
  }

  const current = user.role;
  const chosen = picked ?? current;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setDone(null);
    switchRole.mutate(chosen, {
      onSuccess: (updated) => {
        setPicked(null);
        setDone(`You are now a ${updated.role}.`);
      },
    });
  };

  return (
    <section className="profile-section" aria-labelledby="role-heading">
      <h2 id="role-heading">Role</h2>
      <form onSubmit={submit} className="form">
        <fieldset className="choice-group">
          <legend>
            You are a <strong>{current}</strong>. Switch to:
          </legend>
          {roles.map((role) => (
            <label key={role.value} className="choice">
              <input
                type="radio"
                name="new_role"
                value={role.value}
                checked={chosen === role.value}
                onChange={() => setPicked(role.value)}
              />
              <span>
                <strong>{role.label}</strong>
                {role.value === current && ' (current)'}
                <span className="choice-hint">{role.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {switchRole.isError && <Message tone="error">{messageOf(switchRole.error, 'Failed to switch role')}</Message>}
        {done && <Message tone="success">{done}</Message>}
        <div>
          <Button type="submit" disabled={chosen === current} busy={switchRole.isPending}>
            Switch role
          </Button>
        </div>
      </form>
    </section>
  );
}
