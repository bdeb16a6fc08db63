import type { z } from 'zod';
import type { bulkAddressAnswerSchema } from '../../../../../../contract/address-requests.ts';
import { api } from '../../../../api/client.ts';
import { useAdminMutation } from '../../shared/admin-mutation.ts';

export type BulkAddressAnswer = z.infer<typeof bulkAddressAnswerSchema>;

/** Many addresses in one request with one 2FA code; the server checks and answers each. */
export const addAddresses = ({ addresses, totp_code }: { addresses: string[]; totp_code: string }) =>
  api<BulkAddressAnswer>('/admin/addresses/bulk', {
    json: totp_code ? { addresses, totp_code } : { addresses },
    fallback: 'Failed to add the addresses',
  });

export const useAddAddresses = () => useAdminMutation(addAddresses);
