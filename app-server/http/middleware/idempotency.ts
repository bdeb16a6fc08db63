import { createHash, randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { type Kysely, sql } from 'kysely';
import { conflict, DomainError, invalidInput } from '../../../domain/shared/errors.ts';
import type { Database } from '../../db/schema.ts';
import { type AppendScope, appendScope } from '../../event-store/append-scope.ts';
import type { AppEnv } from '../env.ts';
import { type AnswerRecipe, answerRecipe, committedStreamOf } from '../idempotent-answers.ts';

const KEY_FORMAT = /^[\x21-\x7e]{1,200}$/;

/** How long a request holds its key before a retry may take it over. */
export const IDEMPOTENCY_LEASE_SECONDS = 5;

/**
 * Answers that hand a secret to its owner (session tokens, the first admin's session from /setup, a TOTP secret,
 * recovery codes, a temporary password) are never kept for replay, so the key is ignored there: none of these moves
 * money, and a retried sign-in only opens another session.
 */
const SECRET_ANSWERS = /^\/api\/(auth\/|setup\/|admin\/users\/[^/]+\/reset-password$)/;

type Keys = Kysely<Database>;
const replay = (status: number, body: string) =>
  new Response(body, { status, headers: { 'content-type': 'application/json', 'idempotent-replayed': 'true' } });

/**
 * An `Idempotency-Key` header on a POST makes a retry with the same key and body return the first answer instead
 * of acting twice (except on SECRET_ANSWERS). Keys are per actor; the same key with another body gets 422.
 *
 * A request holds its key for a short lease. Its command marks the key committed in the same transaction as its
 * events, and, for calls that move an escrow, writes the answer there too, built from the read model inside that
 * transaction. So whatever fails after (the database, the process, the connection), a retry finds the committed
 * command and answers as the first would have (rebuilding the answer from the read model if it was never kept);
 * a committed command is never done twice, nor answered 503 on retry. A retry while the lease runs gets 409 with
 * Retry-After; after it, the retry runs the call again (the first never committed: it acts; a first still running
 * can no longer commit, its marking fails on the lease it lost). Server errors with nothing committed are not
 * remembered, so the client may retry them at once.
 */
export function idempotency(options: { db: Keys; leaseSeconds?: number }): MiddlewareHandler<AppEnv> {
  const { db } = options;
  const lease = options.leaseSeconds ?? IDEMPOTENCY_LEASE_SECONDS;
  return async function idempotencyMiddleware(c, next) {
    const key = c.req.header('idempotency-key');
    if (c.req.method !== 'POST' || key === undefined || SECRET_ANSWERS.test(c.req.path)) return next();
    if (!KEY_FORMAT.test(key)) throw invalidInput('Idempotency-Key must be 1 to 200 visible ASCII characters');

    const actor = c.get('actor') ?? 'anonymous';
    const body = new Uint8Array(await c.req.arrayBuffer());
    const requestHash = createHash('sha256')
      .update(`${c.req.method} ${c.req.path} ${c.req.header('content-type') ?? ''}\n`)
      .update(body)
      .digest('hex');
    const recipe = answerRecipe(c.req.path, c.get('user'));
    const token = randomUUID();
    const leaseUntil = sql<string>`now() + make_interval(secs => ${lease})`;

    const claimed = await db
      .insertInto('idempotency_keys')
      .values({
        key,
        actor,
        request_hash: requestHash,
        status: null,
        response_body: null,
        lease_token: token,
        lease_until: leaseUntil,
      })
      .onConflict((oc) => oc.columns(['key', 'actor']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!claimed) {
      const earlier = await retryOf(db, { key, actor, requestHash, token, lease, recipe });
      if (earlier) return earlier;
    }

    // Every append this request makes marks the key committed, with the answer when the call has a recipe.
    const markCommitted: AppendScope['alsoWrite'] = async (trx, stored) => {
      const stream = committedStreamOf(stored);
      const escrowId = recipe?.escrowId(stream);
      // An answer that cannot be built here (not expected) is built on retry instead; it never fails the command.
      const answer = recipe && escrowId ? await recipe.build(trx, escrowId).catch(() => null) : null;
      const marked = await trx
        .updateTable('idempotency_keys')
        .set({
          committed_at: sql<string>`now()`,
          committed_stream: stream,
          ...(answer ? { status: answer.status, response_body: answer.body } : {}),
        })
        .where('key', '=', key)
        .where('actor', '=', actor)
        .where('lease_token', '=', token)
        .executeTakeFirst();
      // A retry took the key over after our lease ran out: it acts instead of us, so this must not commit.
      if (Number(marked.numUpdatedRows) !== 1)
        throw conflict('A retry with this Idempotency-Key took over this request; its answer is the one that counts');
    };
    await appendScope.run({ alsoWrite: markCommitted }, () => next());

    try {
      if (c.res.status >= 500) {
        // Nothing committed: forget the key so the client may retry at once. Committed: keep what the command wrote.
        await db
          .deleteFrom('idempotency_keys')
          .where('key', '=', key)
          .where('actor', '=', actor)
          .where('lease_token', '=', token)
          .where('committed_at', 'is', null)
          .execute();
        return;
      }
      const responseBody = await c.res.clone().text();
      await db
        .updateTable('idempotency_keys')
        .set({ status: c.res.status, response_body: responseBody, lease_until: null })
        .where('key', '=', key)
        .where('actor', '=', actor)
        .where('lease_token', '=', token)
        .execute();
    } catch {
      // The database went away after the answer was made. Committed: the command kept its own record. Not: the
      // lease runs out and a retry runs the call again.
    }
  };
}

interface Retry {
  key: string;
  actor: string;
  requestHash: string;
  token: string;
  lease: number;
  recipe: AnswerRecipe | null;
}

/**
 * A key seen before: its kept answer, or the answer rebuilt for a committed command, or 409 while another request
 * holds the lease. Undefined when this request has taken over an expired lease and must run the call itself.
 */
async function retryOf(db: Keys, retry: Retry): Promise<Response | undefined> {
  const { key, actor } = retry;
  const first = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .select(sql<number>`greatest(0, ceil(extract(epoch from (lease_until - now()))))`.as('lease_left'))
    .where('key', '=', key)
    .where('actor', '=', actor)
    .executeTakeFirst();
  if (!first) throw conflict('A request with this Idempotency-Key has just ended; please retry');
  if (first.request_hash !== retry.requestHash)
    throw invalidInput('Idempotency-Key was already used with a different request');
  if (first.status !== null && first.response_body !== null) return replay(first.status, first.response_body);
  if (first.committed_at) {
    const escrowId = retry.recipe?.escrowId(first.committed_stream);
    if (!retry.recipe || !escrowId)
      throw conflict('The request with this Idempotency-Key was carried out; its answer was not kept');
    const answer = await retry.recipe.build(db, escrowId);
    await db
      .updateTable('idempotency_keys')
      .set({ status: answer.status, response_body: answer.body })
      .where('key', '=', key)
      .where('actor', '=', actor)
      .execute();
    return replay(answer.status, answer.body);
  }
  const left = Number(first.lease_left ?? 0);
  if (first.lease_until !== null && left > 0) {
    throw new DomainError('conflict', 'A request with this Idempotency-Key is still in progress', {
      'Retry-After': String(left),
    });
  }
  // The lease ran out with nothing committed: the first request died (or stalls). Take it over and run the call.
  const taken = await db
    .updateTable('idempotency_keys')
    .set({ lease_token: retry.token, lease_until: sql<string>`now() + make_interval(secs => ${retry.lease})` })
    .where('key', '=', key)
    .where('actor', '=', actor)
    .where('committed_at', 'is', null)
    .where('status', 'is', null)
    .where((eb) =>
      first.lease_token === null ? eb('lease_token', 'is', null) : eb('lease_token', '=', first.lease_token),
    )
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1)
    throw new DomainError('conflict', 'A request with this Idempotency-Key is still in progress', {
      'Retry-After': String(retry.lease),
    });
  return undefined;
}
