import type { Transaction } from 'kysely';
import type { StoredEvent } from '../../domain/stored-event.ts';
import { publicUrl } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { AppDeps } from '../app-deps.ts';
import { notifyOnEscrowEvents } from './notifications.ts';
import { checkAddressPool } from './pool-alert.ts';

/**
 * What follows escrow and pool events inside their own transaction: the mails they call for, and the low-pool
 * alert when an address changed hands. Every escrow command passes this as its `alsoWrite`.
 */
export function afterEscrowEvents(baseUrl: string) {
  const notify = notifyOnEscrowEvents(baseUrl);
  const checkPool = checkAddressPool(baseUrl);
  return async (trx: Transaction<Database>, stored: StoredEvent[]) => {
    await notify(trx, stored);
    if (stored.some((e) => e.stream_type === 'address')) await checkPool(trx);
  };
}

/** The append options every escrow command runs with. */
export const escrowEffects = (deps: Pick<AppDeps, 'config'>) => ({ alsoWrite: afterEscrowEvents(publicUrl(deps.config)) });
