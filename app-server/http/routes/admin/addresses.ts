import { randomUUID } from 'node:crypto';
import type { BitcoinNetwork } from '../../../../domain/bitcoin-address.ts';
import { poolAddressesSchema, poolAddressSchema } from '../../../../contract/addresses.ts';
import { addressIdParam as idParam, bulkAddressAnswerSchema, poolAddressesBulkSchema, poolAddressFormSchema } from '../../../../contract/address-requests.ts';
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Selectable } from 'kysely';
import { addressAggregate } from '../../../../domain/aggregates.ts';
import type { AddressCommand } from '../../../../domain/address/decide.ts';
import { checkBitcoinAddress } from '../../../../domain/bitcoin-address.ts';
import { conflict, DomainError, invalidInput, notFound } from '../../../../domain/shared/errors.ts';
import type { AddressRow } from '../../../../projections/addresses/table.ts';
import { handle } from '../../../commands/handle.ts';
import { poolAddress, poolAddresses, poolAddressIdOf } from '../../../addresses/queries.ts';
import { formBody, jsonAnswer, jsonBody } from '../../bodies.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { AppEnv } from '../../env.ts';
import { currentUser } from '../../middleware/authenticate.ts';
import { adminRoute } from '../../route.ts';

const view = (r: Selectable<AddressRow>) => ({
  id: r.id,
  address_string: r.address_string,
  network: r.network as BitcoinNetwork,
  status: r.status,
  assigned_to_escrow_id: r.assigned_to_escrow_id,
  created_at: r.created_at.toISOString(),
});

/** /api/admin/addresses: the pool of payment addresses. Only an available address is edited or deleted. */
export function adminAddressRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const network = deps.config.BITCOIN_NETWORK;
  const app = new OpenAPIHono<AppEnv>();

  const valid = async (input: string, exceptId?: string) => {
    const checked = checkBitcoinAddress(input, network);
    if (!checked.ok) throw invalidInput(`address_string ${checked.reason}`);
    const taken = await poolAddressIdOf(db, checked.address);
    if (taken !== undefined && taken !== exceptId) throw conflict('This address is already in the pool');
    return checked.address;
  };
  const run = (c: Parameters<typeof currentUser>[0] & { get: (k: 'requestId') => string }, id: string, command: AddressCommand) =>
    handle(deps.store, addressAggregate, id, command, { actor: currentUser(c).id, requestId: c.get('requestId') });
  const fetch = async (id: string) => {
    const row = await poolAddress(db, id);
    if (!row) throw notFound('Address not found');
    return row;
  };

  app.openapi(adminRoute('get', '/', 'The address pool', {}, { 200: jsonAnswer('Addresses', poolAddressesSchema) }), async (c) => {
    return c.json((await poolAddresses(db)).map(view), 200);
  });

  app.openapi(
    adminRoute('post', '/', 'Add an address to the pool', { request: { body: formBody(poolAddressFormSchema) } }, { 201: jsonAnswer('Added', poolAddressSchema) }),
    async (c) => {
      const checked = await valid(c.req.valid('form').address_string);
      const id = randomUUID();
      await run(c, id, { type: 'add', address_id: id, address: checked, network });
      return c.json(view(await fetch(id)), 201);
    },
  );

  app.openapi(
    adminRoute('post', '/bulk', 'Add many addresses with one 2FA code: each is checked and added on its own, and answered in order', {
      request: { body: jsonBody(poolAddressesBulkSchema) },
    }, { 200: jsonAnswer('Each address: added or refused with why', bulkAddressAnswerSchema) }),
    async (c) => {
      const results = [];
      for (const input of c.req.valid('json').addresses) {
        const address = input.trim();
        try {
          const checked = await valid(address);
          const id = randomUUID();
          await run(c, id, { type: 'add', address_id: id, address: checked, network });
          results.push({ address: checked, added: true, id, detail: null });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          results.push({ address, added: false, id: null, detail: error.detail.replace(/^address_string /, 'This address ') });
        }
      }
      const added = results.filter((r) => r.added).length;
      const refused = results.length - added;
      const detail = `${added} address${added === 1 ? '' : 'es'} added${refused ? `, ${refused} refused` : ''}`;
      return c.json({ detail, added, refused, results }, 200);
    },
  );

  app.openapi(
    adminRoute('put', '/{id}', 'Change an available address', { request: { params: idParam, body: formBody(poolAddressFormSchema) } }, {
      200: jsonAnswer('Changed', poolAddressSchema),
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await fetch(id);
      await run(c, id, { type: 'change', address: await valid(c.req.valid('form').address_string, id) });
      return c.json(view(await fetch(id)), 200);
    },
  );

  app.openapi(
    adminRoute('delete', '/{id}', 'Delete an available address', { request: { params: idParam } }, {
      200: jsonAnswer('Deleted', z.object({ detail: z.string() })),
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await fetch(id);
      await run(c, id, { type: 'remove' });
      return c.json({ detail: 'Address deleted' }, 200);
    },
  );

  return app;
}
