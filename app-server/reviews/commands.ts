import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { reviewAggregate } from '../../domain/aggregates.ts';
import type { reviewSubmissionSchema } from '../../contract/review-requests.ts';
import type { ReviewCommand } from '../../domain/review/decide.ts';
import { isVerifiedDeal } from '../../domain/review/verified-deal.ts';
import type { EscrowStatus } from '../../domain/escrow/state.ts';
import { consume } from '../auth/rate-limit.ts';
import { type CommandMeta, handle } from '../commands/handle.ts';
import { relationTo } from '../escrows/parties.ts';
import type { AppDeps, SignedInUser } from '../app-deps.ts';

/** Every write on a review: its submission by anyone, its moderation by an admin. The rules are the review decider's. */

/** Whether the signed-in reviewer's escrow earns the verified-deal mark (the rule is the domain's). */
async function reviewsVerifiedDeal(deps: AppDeps, escrowId: string, user: SignedInUser | undefined): Promise<boolean> {
  if (!user) return false;
  const escrow = await deps.database.db
    .selectFrom('escrows')
    .select(['status', 'created_by', 'creator_side', 'buyer_email', 'seller_email', 'buyer_id', 'seller_id'])
    .where('id', '=', escrowId)
    .executeTakeFirst();
  return escrow !== undefined && isVerifiedDeal({ status: escrow.status as EscrowStatus }, relationTo(escrow, user));
}

/** Takes a public review into moderation, whatever escrow it names. Rate limited per client address. */
export async function submitReview(
  deps: AppDeps,
  input: z.infer<typeof reviewSubmissionSchema>,
  context: { client: string; user: SignedInUser | undefined; meta: Omit<CommandMeta, 'actor'> },
): Promise<string> {
  const { db } = deps.database;
  await consume(
    db,
    { bucket: 'review-ip', max: deps.config.RATE_LIMIT_REVIEWS, windowSeconds: 3600 },
    context.client,
    'Too many reviews from your address',
  );
  // An escrow id that names no escrow and one that is not the author's are taken alike (only a party's released deal
  // earns the mark): answering them apart would tell anyone which escrow ids exist.
  const reviewId = randomUUID();
  await handle(
    deps.store,
    reviewAggregate,
    reviewId,
    {
      type: 'submit',
      review_id: reviewId,
      name: input.name,
      email: input.email,
      country: input.country,
      rating: input.rating,
      text: input.text,
      escrow_id: input.escrow_id,
      verified_deal: input.escrow_id ? await reviewsVerifiedDeal(deps, input.escrow_id, context.user) : false,
    },
    { ...context.meta, actor: context.user?.id ?? 'anonymous' },
  );
  return reviewId;
}

/** An admin's moderation of a review (approve, reject, edit, reopen, delete): one event on its stream, or a refusal. */
export const moderateReview = (
  deps: Pick<AppDeps, 'store'>,
  reviewId: string,
  command: Exclude<ReviewCommand, { type: 'submit' }>,
  meta: CommandMeta,
) => handle(deps.store, reviewAggregate, reviewId, command, meta);
