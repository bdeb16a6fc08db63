import type { BitcoinNetwork } from '../../../../domain/bitcoin-address.ts';
import { poolAddressesSchema, poolAddressSchema } from '../../../../contract/addresses.ts';
import {
  addressIdParam as idParam,
  bulkAddressAnswerSchema,
  poolAddressesBulkSchema,
  poolAddressFormSchema,
} from '../../../../contract/address-requests.ts';
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Selectable } from 'kysely';
import type { AddressRow } from '../../../../projections/addresses/table.ts';
import { addPoolAddress, addPoolAddresses, changePoolAddress, removePoolAddress } from '../../../addresses/commands.ts';
import { poolAddresses } from '../../../addresses/queries.ts';
import { formBody, jsonAnswer, jsonBody } from '../../bodies.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { AppEnv } from '../../env.ts';
import { commandMeta } from '../../command-meta.ts';
import { adminRoute } from '../../route.ts';
import { ADMIN_POWER } from '../../middleware/admin-step-up.ts';

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
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    adminRoute('get', '/', 'The address pool', {}, { 200: jsonAnswer('Addresses', poolAddressesSchema) }),
    async (c) => {
      return c.json((await poolAddresses(db)).map(view), 200);
    },
  );

  app.openapi(
    adminRoute(
      'post',
      '/',
      'Add an address to the pool',
      { request: { body: formBody(poolAddressFormSchema) } },
      { 201: jsonAnswer('Added', poolAddressSchema) },
      ADMIN_POWER,
    ),
    async (c) => {
      return c.json(view(await addPoolAddress(deps, c.req.valid('form').address_string, commandMeta(c))), 201);
    },
  );

  app.openapi(
    adminRoute(
      'post',
      '/bulk',
      'Add many addresses with one 2FA code: each is checked and added on its own, and answered in order',
      {
        request: { body: jsonBody(poolAddressesBulkSchema) },
      },
      { 200: jsonAnswer('Each address: added or refused with why', bulkAddressAnswerSchema) },
      ADMIN_POWER,
    ),
    async (c) => {
      const results = await addPoolAddresses(deps, c.req.valid('json').addresses, commandMeta(c));
      const added = results.filter((r) => r.added).length;
      const refused = results.length - added;
      const detail = `${added} address${added === 1 ? '' : 'es'} added${refused ? `, ${refused} refused` : ''}`;
      return c.json({ detail, added, refused, results }, 200);
    },
  );

  app.openapi(
    adminRoute(
      'put',
      '/{id}',
      'Change an available address',
      { request: { params: idParam, body: formBody(poolAddressFormSchema) } },
      {
        200: jsonAnswer('Changed', poolAddressSchema),
      },
      ADMIN_POWER,
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      return c.json(view(await changePoolAddress(deps, id, c.req.valid('form').address_string, commandMeta(c))), 200);
    },
  );

  app.openapi(
    adminRoute(
      'delete',
      '/{id}',
      'Delete an available address',
      { request: { params: idParam } },
      {
        200: jsonAnswer('Deleted', z.object({ detail: z.string() })),
      },
      ADMIN_POWER,
    ),
    async (c) => {
      await removePoolAddress(deps, c.req.valid('param').id, commandMeta(c));
      return c.json({ detail: 'Address deleted' }, 200);
    },
  );

  return app;
}
