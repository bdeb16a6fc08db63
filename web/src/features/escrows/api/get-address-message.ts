import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { addressMessageSchema } from '../../../../../contract/escrow-requests.ts';
import { api } from '../../../api/client.ts';

export type AddressMessage = z.infer<typeof addressMessageSchema>;

/** The exact message to sign (BIP-322) with `address` to prove it is yours; asked only for an address that passed the local check. */
export const useAddressMessage = (id: string, address: string | null) =>
  useQuery({
    queryKey: ['escrows', id, 'address-message', address],
    queryFn: ({ signal }) =>
      api<AddressMessage>(
        `/escrows/${encodeURIComponent(id)}/address-message?address=${encodeURIComponent(address ?? '')}`,
        { signal, fallback: 'Failed to load the message to sign' },
      ),
    enabled: address !== null,
    staleTime: Infinity,
  });
