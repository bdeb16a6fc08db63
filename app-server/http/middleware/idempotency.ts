import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Kysely } from 'kysely';
import { conflict, invalidInput } from '../../../domain/shared/errors.ts';
import type { Database } from '../../db/schema.ts';
import type { AppEnv } from '../env.ts';

const KEY_FORMAT = /^[\x21-\x7e]{1,200}$/;

/**
 * Answers that hand a secret to its owner (session tokens, a TOTP secret, recovery codes, a temporary password)
 * are never kept for replay, so the key is ignored there: none of these moves money, and a retried sign-in only
 * opens another session.
 */
const SECRET_ANSWERS = /^\/api\/(auth\/|admin\/users\/[^/]+\/reset-password$)/;

/**
 * An `Idempotency-Key` header on a POST makes a retry with the same key and body return the first answer instead
 * of acting twice (except on SECRET_ANSWERS). Keys are per actor. A retry while the first is still running gets 409;
 * the same key with a different body gets 422. Server errors are not remembered, so the client may retry them.
 */
export function idempotency(options: { db: Kysely<Database> }): MiddlewareHandler<AppEnv> {
  const { db } = options;
  return async function idempotencyMiddleware(c, next) {
    const key = c.req.header('idempotency-key');
    if (c.req.method !== 'POST' || key === undefined || SECRET_ANSWERS.test(c.req.path)) return next();
    if (!KEY_FORMAT.test(key))
      throw invalidInput('Idempotency-Key must be 1 to 200 visible ASCII characters');

    const actor = c.get('actor') ?? 'anonymous';
    const body = new Uint8Array(await c.req.arrayBuffer());
    const requestHash = createHash('sha256')
      .update(`${c.req.method} ${c.req.path} ${c.req.header('content-type') ?? ''}\n`)
      .update(body)
      .digest('hex');

    const claimed = await db
      .insertInto('idempotency_keys')
      .values({ key, actor, request_hash: requestHash, status: null, response_body: null })
      .onConflict((oc) => oc.columns(['key', 'actor']).doNothing())
      .returning('key')
      .executeTakeFirst();

    if (!claimed) {
      const first = await db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('key', '=', key)
        .where('actor', '=', actor)
        .executeTakeFirstOrThrow();
      if (first.request_hash !== requestHash) {
        throw invalidInput('Idempotency-Key was already used with a different request');
      }
      if (first.status === null) throw conflict('A request with this Idempotency-Key is still in progress');
      return new Response(first.response_body, {
        status: first.status,
        headers: { 'content-type': 'application/json', 'idempotent-replayed': 'true' },
      });
    }

    await next();
    if (c.res.status >= 500) {
      await db.deleteFrom('idempotency_keys').where('key', '=', key).where('actor', '=', actor).execute();
      return;
    }
    const responseBody = await c.res.clone().text();
    await db
      .updateTable('idempotency_keys')
      .set({ status: c.res.status, response_body: responseBody })
      .where('key', '=', key)
      .where('actor', '=', actor)
      .execute();
  };
}
