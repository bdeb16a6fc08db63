import { z } from 'zod';
import { totpCodeField } from './input-fields.ts';

/** The pool of payment addresses (/api/admin/addresses). */

/** The path of every call on one pool address. */
export const addressIdParam = z.object({ id: z.uuid('id must be an address id') });

/** POST /api/admin/addresses and PUT /api/admin/addresses/{id}: the address is checked for the server's network by the route. */
export const poolAddressFormSchema = z.object({ address_string: z.string('address_string is required').max(200) });

/** The most addresses one bulk request may add. */
export const MAX_BULK_ADDRESSES = 200;

/** POST /api/admin/addresses/bulk: many addresses in one request, with one 2FA code; each is checked on its own. */
export const poolAddressesBulkSchema = z.object({
  addresses: z
    .array(
      z.string('addresses must be a list of addresses').max(200, 'each address must be at most 200 characters'),
      'addresses must be a list of addresses',
    )
    .min(1, 'addresses must name at least one address')
    .max(MAX_BULK_ADDRESSES, `addresses may name at most ${MAX_BULK_ADDRESSES} addresses at once`),
  totp_code: totpCodeField,
});

/** One address of a bulk request: added (with its id) or refused (with why); in the order they were sent. */
export const bulkAddressResultSchema = z.object({
  address: z.string(),
  added: z.boolean(),
  id: z.string().nullable(),
  detail: z.string().nullable(),
});

export const bulkAddressAnswerSchema = z.object({
  detail: z.string(),
  added: z.number().int(),
  refused: z.number().int(),
  results: z.array(bulkAddressResultSchema),
});
