import type { z } from 'zod';
import type { resetPasswordSchema } from '../../../../../../contract/admin-user-requests.ts';
import { api } from '../../../../api/client.ts';
import { type DetailAnswer, useAdminMutation, withCode } from '../../shared/admin-mutation.ts';

export const resetPassword = ({
  id,
  temporary_password,
  totp_code,
}: z.input<typeof resetPasswordSchema> & { id: string; totp_code: string }) =>
  api<DetailAnswer>(`/admin/users/${id}/reset-password`, {
    form: withCode({ temporary_password }, totp_code),
    fallback: 'Failed to reset the password',
  });

export const useResetPassword = () => useAdminMutation(resetPassword);

const ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** 16 characters from the browser's CSPRNG, without look-alikes (l, 1, O, 0), to read out to the user. */
export function temporaryPassword(): string {
  // Bytes at or above the largest multiple of the alphabet's size are skipped, so every character is equally likely.
  const limit = 256 - (256 % ALPHABET.length);
  let out = '';
  while (out.length < 16) {
    for (const b of crypto.getRandomValues(new Uint8Array(32)))
      if (b < limit && out.length < 16) out += ALPHABET[b % ALPHABET.length];
  }
  return out;
}
