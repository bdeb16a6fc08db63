import { describe, expect, it } from 'vitest';
import { userAggregate } from '../aggregates.ts';
import { ACTOR, given } from '../testing/given.ts';
import type { UserEvent } from './events.ts';

const ID = '55555555-5555-4555-8555-555555555555';
const registered = (role: 'buyer' | 'seller' | 'admin' = 'buyer'): UserEvent => ({
  type: 'UserRegistered',
  data: { user_id: ID, username: 'ann', email: 'ann@example.com', full_name: 'Ann', role, country: null, phone: null },
});
const user = (past: UserEvent[], actor = ACTOR) => given(userAggregate, past, { actor });

describe('account', () => {
  it('switches between buyer and seller only', () => {
    user([registered()])
      .when({ type: 'switchRole', to: 'seller' })
      .then([{ type: 'RoleSwitched', data: { from: 'buyer', to: 'seller' } }]);
    user([registered()]).when({ type: 'switchRole', to: 'buyer' }).thenRefused('invalid_input', 'already a buyer');
    user([registered()]).when({ type: 'switchRole', to: 'admin' }).thenRefused('forbidden');
    user([registered('admin')])
      .when({ type: 'switchRole', to: 'buyer' })
      .thenRefused('forbidden', 'Admin role cannot be changed');
  });

  it('suspends with a reason, never oneself, not twice', () => {
    user([registered()])
      .when({ type: 'suspend', reason: ' Fraud ' })
      .then([{ type: 'UserSuspended', data: { reason: 'Fraud' } }]);
    user([registered()]).when({ type: 'suspend', reason: '  ' }).thenRefused('invalid_input', 'reason');
    user([registered('admin')], ID)
      .when({ type: 'suspend', reason: 'x' })
      .thenRefused('forbidden', 'your own account');
    user([registered(), { type: 'UserSuspended', data: { reason: 'x' } }])
      .when({ type: 'suspend', reason: 'y' })
      .thenRefused('transition_not_allowed');
    user([registered()]).when({ type: 'unsuspend' }).thenRefused('transition_not_allowed');
  });

  it('updates only what changes, and an admin cannot demote or delete themselves', () => {
    user([registered()])
      .when({ type: 'update', full_name: 'Ann Smith', email: 'ANN@example.com', role: 'buyer' })
      .then([{ type: 'UserUpdated', data: { full_name: 'Ann Smith' } }]);
    user([registered()]).when({ type: 'update', full_name: ' ' }).thenRefused('invalid_input', 'Nothing to change');
    user([registered('admin')], ID)
      .when({ type: 'update', role: 'buyer' })
      .thenRefused('forbidden', 'demote');
    user([registered('admin')], ID)
      .when({ type: 'delete' })
      .thenRefused('forbidden');
  });

  it('clears e-mail verification when the address changes', () => {
    const verified = [registered(), { type: 'EmailVerified', data: { email: 'ann@example.com' } } as UserEvent];
    const state = (events: UserEvent[]) => events.reduce(userAggregate.evolve, userAggregate.initial());
    expect(state(verified).email_verified).toBe(true);
    expect(state([...verified, { type: 'UserUpdated', data: { email: 'new@example.com' } }]).email_verified).toBe(
      false,
    );
    user([...verified, { type: 'UserUpdated', data: { email: 'new@example.com' } }])
      .when({ type: 'verifyEmail', email: 'ann@example.com' })
      .thenRefused('invalid_input');
  });

  it('toggles 2FA, and takes nothing once deleted', () => {
    user([registered()])
      .when({ type: 'enableTwoFactor' })
      .then([{ type: 'TwoFactorEnabled', data: {} }]);
    user([registered(), { type: 'TwoFactorEnabled', data: {} }])
      .when({ type: 'enableTwoFactor' })
      .thenRefused('transition_not_allowed');
    user([registered()]).when({ type: 'disableTwoFactor' }).thenRefused('transition_not_allowed');
    user([registered(), { type: 'UserDeleted', data: {} }])
      .when({ type: 'signIn' })
      .thenRefused('not_found');
  });

  it('makes new recovery codes only while 2FA is on, recording how many and never the codes', () => {
    user([registered(), { type: 'TwoFactorEnabled', data: {} }])
      .when({ type: 'regenerateRecoveryCodes', count: 10 })
      .then([{ type: 'RecoveryCodesRegenerated', data: { count: 10 } }]);
    user([registered()]).when({ type: 'regenerateRecoveryCodes', count: 10 }).thenRefused('transition_not_allowed');
    user([registered(), { type: 'TwoFactorEnabled', data: {} }, { type: 'TwoFactorDisabled', data: {} }])
      .when({ type: 'regenerateRecoveryCodes', count: 10 })
      .thenRefused('transition_not_allowed');
  });
});
