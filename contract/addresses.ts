import { z } from 'zod';

/** A payment address of the pool. */
export const poolAddressSchema = z.strictObject({
  id: z.string(),
  address_string: z.string(),
  network: z.enum(['mainnet', 'testnet', 'signet', 'regtest']),
  status: z.enum(['available', 'assigned', 'used']),
  assigned_to_escrow_id: z.string().nullable(),
  created_at: z.string(),
});
export const poolAddressesSchema = z.array(poolAddressSchema);
