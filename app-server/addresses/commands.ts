import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { addressAggregate } from '../../domain/aggregates.ts';
import type { AddressCommand } from '../../domain/address/decide.ts';
import { checkBitcoinAddress } from '../../domain/bitcoin-address.ts';
import { conflict, DomainError, invalidInput, notFound } from '../../domain/shared/errors.ts';
import type { AddressRow } from '../../projections/addresses/table.ts';
import type { AppDeps } from '../app-deps.ts';
import { type CommandMeta, handle } from '../commands/handle.ts';
import { poolAddress, poolAddressIdOf } from './queries.ts';

type Deps = Pick<AppDeps, 'store' | 'database' | 'config'>;

/** One address of a bulk add: added (with its id) or refused, with why in words for the admin. */
export type BulkAddressResult =
  | { address: string; added: true; id: string; detail: null }
  | { address: string; added: false; id: null; detail: string };

/**
 * Every write on the pool of payment addresses. The address decider holds the rules (only an available address is
 * changed or removed); what is checked here is what it cannot see: that the text is an address of this server's
 * network, and that the pool does not hold it already. Each answers the address as written.
 */
async function valid(deps: Deps, input: string, exceptId?: string) {
  const checked = checkBitcoinAddress(input, deps.config.BITCOIN_NETWORK);
  if (!checked.ok) throw invalidInput(`address_string ${checked.reason}`);
  const taken = await poolAddressIdOf(deps.database.db, checked.address);
  if (taken !== undefined && taken !== exceptId) throw conflict('This address is already in the pool');
  return checked.address;
}

async function run(
  deps: Deps,
  id: string,
  command: AddressCommand,
  meta: CommandMeta,
): Promise<Selectable<AddressRow>> {
  await handle(deps.store, addressAggregate, id, command, meta);
  const row = await poolAddress(deps.database.db, id);
  if (!row) throw notFound('Address not found');
  return row;
}

/** Adds an address to the pool, available to the next escrow that needs one. */
export async function addPoolAddress(deps: Deps, input: string, meta: CommandMeta) {
  const address = await valid(deps, input);
  const id = randomUUID();
  return run(deps, id, { type: 'add', address_id: id, address, network: deps.config.BITCOIN_NETWORK }, meta);
}

/** Adds many addresses (one second factor for all): each is checked and added on its own, answered in order. */
export async function addPoolAddresses(
  deps: Deps,
  inputs: readonly string[],
  meta: CommandMeta,
): Promise<BulkAddressResult[]> {
  const results: BulkAddressResult[] = [];
  for (const input of inputs) {
    const address = input.trim();
    try {
      const row = await addPoolAddress(deps, address, meta);
      results.push({ address: row.address_string, added: true, id: row.id, detail: null });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      results.push({
        address,
        added: false,
        id: null,
        detail: error.detail.replace(/^address_string /, 'This address '),
      });
    }
  }
  return results;
}

/** Replaces the text of an available address (the decider refuses one that is assigned or used). */
export async function changePoolAddress(deps: Deps, id: string, input: string, meta: CommandMeta) {
  return run(deps, id, { type: 'change', address: await valid(deps, input, id) }, meta);
}

/** Takes an available address out of the pool (its history stays in the log). */
export async function removePoolAddress(deps: Deps, id: string, meta: CommandMeta) {
  await handle(deps.store, addressAggregate, id, { type: 'remove' }, meta);
}
