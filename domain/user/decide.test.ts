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

const state = (events: UserEvent[]) => events.reduce(userAggregate.evolve, userAggregate.initial());
const OTHER = '66666666-6666-4666-8666-666666666666';

describe('registration', () => {
  it('records the account with its e-mail address trimmed and in lower case', () => {
    user([])
      .when({
        type: 'register',
        user_id: ID,
        username: 'ann',
        email: '  Ann@Example.COM ',
        full_name: 'Ann',
        role: 'seller',
        country: 'FR',
        phone: '+33 1 23',
      })
      .then([
        {
          type: 'UserRegistered',
          data: {
            user_id: ID,
            username: 'ann',
            email: 'ann@example.com',
            full_name: 'Ann',
            role: 'seller',
            country: 'FR',
            phone: '+33 1 23',
          },
        },
      ]);
  });

  it('refuses to register the same account twice', () => {
    user([registered()])
      .when({
        type: 'register',
        user_id: ID,
        username: 'ann',
        email: 'ann@example.com',
        full_name: 'Ann',
        role: 'buyer',
        country: null,
        phone: null,
      })
      .thenRefused('conflict', 'This account already exists');
  });

  it('knows no account before it is registered, nor after it is deleted', () => {
    user([]).when({ type: 'signIn' }).thenRefused('not_found', 'User not found');
    user([registered(), { type: 'UserDeleted', data: {} }])
      .when({ type: 'resetPassword' })
      .thenRefused('not_found', 'User not found');
  });

  it('starts from an empty, unverified, active account and keeps the e-mail address in lower case', () => {
    expect(state([])).toEqual({
      exists: false,
      deleted: false,
      user_id: null,
      role: null,
      email: null,
      email_verified: false,
      suspended: false,
      totp_enabled: false,
    });
    const upper: UserEvent = {
      type: 'UserRegistered',
      data: {
        user_id: ID,
        username: 'ann',
        email: 'Ann@Example.com',
        full_name: 'Ann',
        role: 'seller',
        country: null,
        phone: null,
      },
    };
    expect(state([upper])).toEqual({
      exists: true,
      deleted: false,
      user_id: ID,
      role: 'seller',
      email: 'ann@example.com',
      email_verified: false,
      suspended: false,
      totp_enabled: false,
    });
  });
});

describe('e-mail verification', () => {
  it('verifies the current address whatever its case, once', () => {
    user([registered()])
      .when({ type: 'verifyEmail', email: 'ANN@example.com' })
      .then([{ type: 'EmailVerified', data: { email: 'ann@example.com' } }]);
    user([registered(), { type: 'EmailVerified', data: { email: 'ann@example.com' } }])
      .when({ type: 'verifyEmail', email: 'ann@example.com' })
      .then([]);
  });

  it('refuses a link for another address, saying so', () => {
    user([registered()])
      .when({ type: 'verifyEmail', email: 'bob@example.com' })
      .thenRefused('invalid_input', 'This link is for an e-mail address the account no longer uses');
  });

  it('marks the account verified only for its current address, whatever the case of the event', () => {
    expect(state([registered(), { type: 'EmailVerified', data: { email: 'ANN@Example.com' } }]).email_verified).toBe(
      true,
    );
    expect(state([registered(), { type: 'EmailVerified', data: { email: 'old@example.com' } }]).email_verified).toBe(
      false,
    );
  });
});

describe('roles', () => {
  it('says why a role cannot be switched', () => {
    user([registered()])
      .when({ type: 'switchRole', to: 'admin' })
      .thenRefused('forbidden', 'Only an admin can make another admin');
    user([registered('seller')])
      .when({ type: 'switchRole', to: 'seller' })
      .thenRefused('invalid_input', 'You are already a seller');
  });

  it('takes the new role from a switch', () => {
    expect(state([registered(), { type: 'RoleSwitched', data: { from: 'buyer', to: 'seller' } }]).role).toBe('seller');
  });
});

describe('second factor', () => {
  const on: UserEvent[] = [registered(), { type: 'TwoFactorEnabled', data: {} }];

  it('turns 2FA on and off, and says why not', () => {
    expect(state(on).totp_enabled).toBe(true);
    expect(state([...on, { type: 'TwoFactorDisabled', data: {} }]).totp_enabled).toBe(false);
    user(on)
      .when({ type: 'disableTwoFactor' })
      .then([{ type: 'TwoFactorDisabled', data: {} }]);
    user(on).when({ type: 'enableTwoFactor' }).thenRefused('transition_not_allowed', '2FA is already enabled');
    user([registered()]).when({ type: 'disableTwoFactor' }).thenRefused('transition_not_allowed', '2FA is not enabled');
    user([registered()])
      .when({ type: 'regenerateRecoveryCodes', count: 8 })
      .thenRefused('transition_not_allowed', '2FA is not enabled: recovery codes come with it');
  });

  it('records a lock after too many wrong codes, with the figures', () => {
    user(on)
      .when({ type: 'lockTwoFactor', failures: 5, window_minutes: 15 })
      .then([{ type: 'TwoFactorLocked', data: { failures: 5, window_minutes: 15 } }]);
  });
});

describe('suspension', () => {
  const suspended: UserEvent[] = [registered(), { type: 'UserSuspended', data: { reason: 'Fraud' } }];

  it('says why a suspension is refused, checking the actor, then the reason, then the state', () => {
    user([registered()], ID)
      .when({ type: 'suspend', reason: '' })
      .thenRefused('forbidden', 'You cannot suspend your own account');
    user(suspended)
      .when({ type: 'suspend', reason: ' ' })
      .thenRefused('invalid_input', 'reason is required to suspend a user');
    user(suspended)
      .when({ type: 'suspend', reason: 'Again' })
      .thenRefused('transition_not_allowed', 'User is already suspended');
  });

  it('lifts a suspension, and refuses to lift one that is not there', () => {
    expect(state(suspended).suspended).toBe(true);
    expect(state([...suspended, { type: 'UserUnsuspended', data: {} }]).suspended).toBe(false);
    user(suspended)
      .when({ type: 'unsuspend' })
      .then([{ type: 'UserUnsuspended', data: {} }]);
    user([registered()]).when({ type: 'unsuspend' }).thenRefused('transition_not_allowed', 'User is not suspended');
  });

  it('lets an active account sign in and keeps a suspended one out', () => {
    user([registered()])
      .when({ type: 'signIn' })
      .then([{ type: 'UserSignedIn', data: {} }]);
    user(suspended).when({ type: 'signIn' }).thenRefused('forbidden', 'Account suspended');
    user([...suspended, { type: 'UserUnsuspended', data: {} }])
      .when({ type: 'signIn' })
      .then([{ type: 'UserSignedIn', data: {} }]);
  });
});

describe('profile updates', () => {
  it('records a new name, address and role, trimmed and in lower case', () => {
    user([registered()])
      .when({ type: 'update', full_name: '  Ann Smith ', email: ' Ann.Smith@Example.com ', role: 'seller' })
      .then([
        { type: 'UserUpdated', data: { full_name: 'Ann Smith', email: 'ann.smith@example.com', role: 'seller' } },
      ]);
    user([registered()])
      .when({ type: 'update', email: 'new@example.com' })
      .then([{ type: 'UserUpdated', data: { email: 'new@example.com' } }]);
    user([registered()])
      .when({ type: 'update', role: 'seller' })
      .then([{ type: 'UserUpdated', data: { role: 'seller' } }]);
  });

  it('refuses an update that changes nothing, naming what may change', () => {
    user([registered()])
      .when({ type: 'update', email: ' ANN@example.com ', role: 'buyer' })
      .thenRefused('invalid_input', 'Nothing to change: give full_name, email or role');
    user([registered()]).when({ type: 'update' }).thenRefused('invalid_input', 'Nothing to change');
  });

  it('lets an admin demote another admin, and change their own name', () => {
    user([registered('admin')], OTHER)
      .when({ type: 'update', role: 'seller' })
      .then([{ type: 'UserUpdated', data: { role: 'seller' } }]);
    user([registered('admin')], ID)
      .when({ type: 'update', full_name: 'Ann A.' })
      .then([{ type: 'UserUpdated', data: { full_name: 'Ann A.' } }]);
    user([registered('admin')], ID)
      .when({ type: 'update', role: 'buyer' })
      .thenRefused('forbidden', 'You cannot demote your own account');
  });

  it('lets a buyer change their own role', () => {
    user([registered()], ID)
      .when({ type: 'update', role: 'seller' })
      .then([{ type: 'UserUpdated', data: { role: 'seller' } }]);
  });

  it('keeps what an update leaves out, and the verification of an unchanged address', () => {
    const verified: UserEvent[] = [registered(), { type: 'EmailVerified', data: { email: 'ann@example.com' } }];
    expect(state([...verified, { type: 'UserUpdated', data: { full_name: 'Ann B.' } }])).toMatchObject({
      role: 'buyer',
      email: 'ann@example.com',
      email_verified: true,
    });
    expect(state([...verified, { type: 'UserUpdated', data: { email: 'ANN@example.com' } }])).toMatchObject({
      email: 'ann@example.com',
      email_verified: true,
    });
    expect(
      state([...verified, { type: 'UserUpdated', data: { email: 'New@Example.com', role: 'seller' } }]),
    ).toMatchObject({ role: 'seller', email: 'new@example.com', email_verified: false });
  });
});

describe('account removal and passwords', () => {
  it('deletes another account, never one\u2019s own', () => {
    user([registered()], OTHER)
      .when({ type: 'delete' })
      .then([{ type: 'UserDeleted', data: {} }]);
    user([registered()], ID).when({ type: 'delete' }).thenRefused('forbidden', 'You cannot delete your own account');
    expect(state([registered(), { type: 'UserDeleted', data: {} }])).toMatchObject({ exists: true, deleted: true });
  });

  it('records password resets and changes', () => {
    user([registered()])
      .when({ type: 'resetPassword' })
      .then([{ type: 'PasswordReset', data: {} }]);
    user([registered()])
      .when({ type: 'changePassword' })
      .then([{ type: 'PasswordChanged', data: {} }]);
  });

  it('leaves the account as it was on events that do not change it', () => {
    const before = state([registered()]);
    expect(state([registered(), { type: 'PasswordChanged', data: {} }])).toEqual(before);
    expect(state([registered(), { type: 'UserSignedIn', data: {} }])).toEqual(before);
  });

  it('names an unknown command', () => {
    expect(() =>
      userAggregate.decide({ type: 'fly' } as never, state([registered()]), {
        now: '2026-01-01T00:00:00.000Z',
        newId: () => OTHER,
        actor: ACTOR,
      }),
    ).toThrow('Unknown user command fly');
  });
});
