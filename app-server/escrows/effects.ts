import { addressEventSchemas } from '../../domain/address/events.ts';
import type { AddressEventType } from '../../domain/address/events.ts';
import type { AfterAppend } from '../event-store/event-store.ts';
import { MAILED_ESCROW_EVENTS, notifyOnEscrowEvents } from './notifications.ts';
import { checkAddressPool } from './pool-alert.ts';

/**
 * What escrow and pool events bring with them in their own transaction, registered with the event store: the mail
 * an escrow event calls for, and the low-pool alert whenever an address changes hands.
 */
export const escrowEffects = (baseUrl: string): AfterAppend[] => [
  { name: 'escrow mail', handles: MAILED_ESCROW_EVENTS, run: notifyOnEscrowEvents(baseUrl) },
  {
    name: 'address pool alert',
    handles: Object.keys(addressEventSchemas) as AddressEventType[],
    run: checkAddressPool(baseUrl),
  },
];
