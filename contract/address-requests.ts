import { z } from 'zod';

/** The pool of payment addresses (/api/admin/addresses). */

/** The path of every call on one pool address. */
export const addressIdParam = z.object({ id: z.uuid('id must be an address id') });

/** POST /api/admin/addresses and PUT /api/admin/addresses/{id}: the address is checked for the server's network by the route. */
export const poolAddressFormSchema = z.object({ address_string: z.string('address_string is required').max(200) });
