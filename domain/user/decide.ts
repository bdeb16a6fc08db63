import type { DecideContext } from '../shared/context.ts';
import { conflict, forbidden, invalidInput, notFound, transitionNotAllowed } from '../shared/errors.ts';
import type { Role } from '../shared/schemas.ts';
import type { UserEvent } from './events.ts';

export interface UserState {
  exists: boolean;
  deleted: boolean;
  user_id: string | null;
  role: Role | null;
  email: string | null;
  email_verified: boolean;
  suspended: boolean;
  totp_enabled: boolean;
}

export const initialUserState = (): UserState => ({
  exists: false,
  deleted: false,
  user_id: null,
  role: null,
  email: null,
  email_verified: false,
  suspended: false,
  totp_enabled: false,
});

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        ...state,
        exists: true,
        user_id: event.data.user_id,
        role: event.data.role,
        email: event.data.email.toLowerCase(),
      };
    case 'EmailVerified':
      return event.data.email.toLowerCase() === state.email ? { ...state, email_verified: true } : state;
    case 'RoleSwitched':
      return { ...state, role: event.data.to };
    case 'TwoFactorEnabled':
      return { ...state, totp_enabled: true };
    case 'TwoFactorDisabled':
      return { ...state, totp_enabled: false };
    case 'UserSuspended':
      return { ...state, suspended: true };
    case 'UserUnsuspended':
      return { ...state, suspended: false };
    case 'UserUpdated': {
      const email = event.data.email?.toLowerCase();
      const emailChanged = email !== undefined && email !== state.email;
      return {
        ...state,
        role: event.data.role ?? state.role,
        email: emailChanged ? email : state.email,
        email_verified: emailChanged ? false : state.email_verified,
      };
    }
    case 'UserDeleted':
      return { ...state, deleted: true };
    default:
      return state;
  }
}

export type UserCommand =
  | {
      type: 'register';
      user_id: string;
      username: string;
      email: string;
      full_name: string;
      role: Role;
      country: string | null;
      phone: string | null;
    }
  | { type: 'verifyEmail'; email: string }
  | { type: 'switchRole'; to: Role }
  | { type: 'enableTwoFactor' }
  | { type: 'disableTwoFactor' }
  | { type: 'regenerateRecoveryCodes'; count: number }
  | { type: 'suspend'; reason: string }
  | { type: 'unsuspend' }
  | { type: 'update'; full_name?: string | undefined; email?: string | undefined; role?: Role | undefined }
  | { type: 'delete' }
  | { type: 'resetPassword' }
  | { type: 'changePassword' }
  | { type: 'signIn' }
  | { type: 'lockTwoFactor'; failures: number; window_minutes: number };

const notSelf = (state: UserState, ctx: DecideContext, doing: string) => {
  if (ctx.actor === state.user_id) throw forbidden(`You cannot ${doing} your own account`);
};

function update(command: Extract<UserCommand, { type: 'update' }>, state: UserState, ctx: DecideContext): UserEvent[] {
  const data: { full_name?: string; email?: string; role?: Role } = {};
  const fullName = command.full_name?.trim();
  if (fullName && fullName.length > 0) data.full_name = fullName;
  const email = command.email?.trim().toLowerCase();
  if (email && email !== state.email) data.email = email;
  if (command.role && command.role !== state.role) {
    if (state.role === 'admin') notSelf(state, ctx, 'demote');
    data.role = command.role;
  }
  if (Object.keys(data).length === 0) throw invalidInput('Nothing to change: give full_name, email or role');
  return [{ type: 'UserUpdated', data }];
}

/** Account rules. Secrets are handled beside these events, never in them. */
export function decideUser(command: UserCommand, state: UserState, ctx: DecideContext): UserEvent[] {
  if (command.type === 'register') {
    if (state.exists) throw conflict('This account already exists');
    const { type: _type, ...data } = command;
    return [{ type: 'UserRegistered', data: { ...data, email: data.email.trim().toLowerCase() } }];
  }
  if (!state.exists || state.deleted) throw notFound('User not found');
  switch (command.type) {
    case 'verifyEmail':
      if (command.email.toLowerCase() !== state.email)
        throw invalidInput('This link is for an e-mail address the account no longer uses');
      return state.email_verified ? [] : [{ type: 'EmailVerified', data: { email: state.email } }];
    case 'switchRole':
      if (state.role === 'admin') throw forbidden('Admin role cannot be changed');
      if (command.to === 'admin') throw forbidden('Only an admin can make another admin');
      if (command.to === state.role) throw invalidInput(`You are already a ${state.role}`);
      return [{ type: 'RoleSwitched', data: { from: state.role!, to: command.to } }];
    case 'enableTwoFactor':
      if (state.totp_enabled) throw transitionNotAllowed('2FA is already enabled');
      return [{ type: 'TwoFactorEnabled', data: {} }];
    case 'disableTwoFactor':
      if (!state.totp_enabled) throw transitionNotAllowed('2FA is not enabled');
      return [{ type: 'TwoFactorDisabled', data: {} }];
    case 'regenerateRecoveryCodes':
      if (!state.totp_enabled) throw transitionNotAllowed('2FA is not enabled: recovery codes come with it');
      return [{ type: 'RecoveryCodesRegenerated', data: { count: command.count } }];
    case 'suspend': {
      notSelf(state, ctx, 'suspend');
      const reason = command.reason.trim();
      if (!reason) throw invalidInput('reason is required to suspend a user');
      if (state.suspended) throw transitionNotAllowed('User is already suspended');
      return [{ type: 'UserSuspended', data: { reason } }];
    }
    case 'unsuspend':
      if (!state.suspended) throw transitionNotAllowed('User is not suspended');
      return [{ type: 'UserUnsuspended', data: {} }];
    case 'update':
      return update(command, state, ctx);
    case 'delete':
      notSelf(state, ctx, 'delete');
      return [{ type: 'UserDeleted', data: {} }];
    case 'resetPassword':
      return [{ type: 'PasswordReset', data: {} }];
    case 'changePassword':
      return [{ type: 'PasswordChanged', data: {} }];
    case 'signIn':
      if (state.suspended) throw forbidden('Account suspended');
      return [{ type: 'UserSignedIn', data: {} }];
    case 'lockTwoFactor':
      return [
        { type: 'TwoFactorLocked', data: { failures: command.failures, window_minutes: command.window_minutes } },
      ];
    default: {
      const unknown: never = command;
      throw new Error(`Unknown user command ${(unknown as { type: string }).type}`);
    }
  }
}
