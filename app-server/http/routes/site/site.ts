import { OpenAPIHono, z } from '@hono/zod-openapi';
import { type PgpKeyInfo, pgpKeySchema, siteInfoSchema } from '../../../../contract/site.ts';
import { DomainError } from '../../../../domain/shared/errors.ts';
import { contactSchema } from '../../../../contract/support-requests.ts';
import { consume } from '../../../auth/rate-limit.ts';
import { userWords } from '../../../mail/user-words.ts';
import { enqueueMail } from '../../../mail/outbox.ts';
import { readPgpKey } from '../../../site/pgp-key.ts';
import { jsonAnswer, jsonBody } from '../../bodies.ts';
import { clientAddress } from '../../client-address.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { AppEnv } from '../../env.ts';
import { route } from '../../route.ts';

/** /api/site, /api/pgp-key and /api/contact: what every public page may show of the operator: support contacts, and the support PGP key. */
export function siteRoutes(deps: AppDeps) {
  const { config } = deps;
  const app = new OpenAPIHono<AppEnv>();
  let key: Promise<PgpKeyInfo> | undefined;

  app.openapi(
    route(
      'get',
      '/site',
      'Support e-mail and hours, and the Bitcoin network addresses are checked for, as configured',
      {},
      {
        200: jsonAnswer('Support contacts and network', siteInfoSchema),
      },
    ),
    (c) =>
      c.json(
        {
          support_email: config.SUPPORT_EMAIL,
          support_hours: config.SUPPORT_HOURS,
          pgp_key_configured: Boolean(config.PGP_PUBLIC_KEY_FILE),
          bitcoin_network: config.BITCOIN_NETWORK,
        },
        200,
      ),
  );

  app.openapi(
    route(
      'get',
      '/pgp-key',
      "The support team's public PGP key and what it says of itself",
      {},
      {
        200: jsonAnswer('The armored key with its type, id and fingerprint', pgpKeySchema),
      },
    ),
    async (c) => {
      if (!config.PGP_PUBLIC_KEY_FILE) throw new DomainError('not_found', 'No PGP key is published for support yet');
      key ??= readPgpKey(config.PGP_PUBLIC_KEY_FILE).catch((error: unknown) => {
        key = undefined;
        deps.logger.error({ err: (error as Error).message }, 'cannot read PGP_PUBLIC_KEY_FILE');
        throw new DomainError('not_ready', 'The support PGP key cannot be read right now');
      });
      return c.json({ ...(await key), support_email: config.SUPPORT_EMAIL }, 200);
    },
  );

  app.openapi(
    route(
      'post',
      '/contact',
      'A message to support, delivered by mail',
      { request: { body: jsonBody(contactSchema) } },
      {
        202: jsonAnswer('Queued for delivery', z.object({ detail: z.string() })),
      },
    ),
    async (c) => {
      const { name, email, message } = c.req.valid('json');
      const { db } = deps.database;
      await consume(
        db,
        { bucket: 'contact-ip', max: config.RATE_LIMIT_CONTACT, windowSeconds: 3600 },
        clientAddress(c, config.TRUST_PROXY),
        'Too many messages from your address',
      );
      await db.transaction().execute((trx) =>
        enqueueMail(trx, [
          {
            to: config.SUPPORT_EMAIL,
            subject: 'Contact form message',
            text: [
              `Reply to: ${email}`,
              '',
              ...userWords('Name given', name),
              '',
              ...userWords('Message', message),
            ].join('\n'),
          },
        ]),
      );
      return c.json({ detail: "Thank you! We'll get back to you soon." }, 202);
    },
  );
  return app;
}
