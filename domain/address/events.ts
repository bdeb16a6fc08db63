import { z } from 'zod';
import { uuid } from '../shared/schemas.ts';

/** Facts about one pool address, stored on the stream `address:{address_id}`. */
export const addressEventSchemas = {
  AddressAdded: z.object({ address_id: uuid, address: z.string(), network: z.string() }),
  AddressChanged: z.object({ address: z.string() }),
  AddressRemoved: z.object({}),
  /** Taken by an escrow; appended in the same transaction as the escrow's PaymentAddressAssigned. */
  AddressAssigned: z.object({ escrow_id: uuid }),
  /** Back in the pool: the escrow ended without payment. */
  AddressFreed: z.object({ escrow_id: uuid }),
  /** Money went through it: never handed out again. */
  AddressUsed: z.object({ escrow_id: uuid }),
} as const;

type Schemas = typeof addressEventSchemas;
export type AddressEventType = keyof Schemas;
export type AddressEvent = {
  [K in AddressEventType]: { type: K; data: z.infer<Schemas[K]> };
}[AddressEventType];
