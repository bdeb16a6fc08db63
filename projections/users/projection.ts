import { defineProjection, type ProjectedEvent } from '../projection.ts';
import { idOfStream } from '../stream-ids.ts';
import type { RowOf } from '../tables.ts';
import { existingRow, updateRow } from '../update-row.ts';

const TABLE = 'users';
const CAUSE = { projection: 'users', noun: 'user' };

type UserChanges = Partial<RowOf<typeof TABLE>>;

/** Changes to the user row for each event after the registration (a deletion is handled apart). */
function changesFor(event: ProjectedEvent, row: RowOf<typeof TABLE>): UserChanges {
  switch (event.type) {
    case 'EmailVerified':
      return event.data.email.toLowerCase() === row.email ? { email_verified: true } : {};
    case 'RoleSwitched':
      return { role: event.data.to };
    case 'TwoFactorEnabled':
      return { totp_enabled: true };
    case 'TwoFactorDisabled':
      return { totp_enabled: false };
    case 'UserSuspended':
      return { is_frozen: true, suspension_reason: event.data.reason };
    case 'UserUnsuspended':
      return { is_frozen: false, suspension_reason: null };
    case 'UserUpdated': {
      const { full_name, email, role } = event.data;
      const changes: UserChanges = {};
      if (full_name !== undefined) changes.full_name = full_name;
      if (role !== undefined) changes.role = role;
      if (email !== undefined && email.toLowerCase() !== row.email) {
        changes.email = email.toLowerCase();
        changes.email_verified = false;
      }
      return changes;
    }
    case 'UserSignedIn':
      return { last_sign_in_at: event.occurred_at };
    default:
      return {};
  }
}

/** One row per account; deleted accounts leave the read model (their history stays in the log). */
export const usersProjection = defineProjection({
  name: 'users',
  tables: [{ name: TABLE, key: ['id'] }],
  handles: [
    'UserRegistered',
    'EmailVerified',
    'RoleSwitched',
    'TwoFactorEnabled',
    'TwoFactorDisabled',
    'UserSuspended',
    'UserUnsuspended',
    'UserUpdated',
    'UserDeleted',
    'UserSignedIn',
  ],
  async apply(store, event) {
    const id = idOfStream(event.stream_id);
    if (event.type === 'UserRegistered') {
      const d = event.data;
      await store.put(TABLE, {
        id,
        username: d.username,
        email: d.email.toLowerCase(),
        email_verified: false,
        full_name: d.full_name,
        role: d.role,
        country: d.country,
        phone: d.phone,
        is_frozen: false,
        suspension_reason: null,
        totp_enabled: false,
        last_sign_in_at: null,
        created_at: event.occurred_at,
        updated_at: event.occurred_at,
      });
      return;
    }
    if (event.type === 'UserDeleted') {
      await existingRow(store, TABLE, [id], event, CAUSE);
      await store.delete(TABLE, [id]);
      return;
    }
    await updateRow(
      store,
      TABLE,
      [id],
      (row) => Object.assign(changesFor(event, row), { updated_at: event.occurred_at }),
      event,
      CAUSE,
    );
  },
});
