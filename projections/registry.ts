import { addressesProjection } from './addresses/projection.ts';
import { auditLogProjection } from './audit-log/projection.ts';
import { disputesProjection } from './disputes/projection.ts';
import { escrowsProjection } from './escrows/projection.ts';
import { messagesProjection } from './messages/projection.ts';
import { proposalsProjection } from './proposals/projection.ts';
import type { Projection } from './projection.ts';
import { reviewStatsProjection } from './review-stats/projection.ts';
import { reviewsProjection } from './reviews/projection.ts';
import { settingsProjection } from './settings/projection.ts';
import { usersProjection } from './users/projection.ts';
import { verificationsProjection } from './verifications/projection.ts';

/** Every read model, in the order they run for each event. */
export const projections: readonly Projection[] = [
  usersProjection,
  escrowsProjection,
  addressesProjection,
  disputesProjection,
  verificationsProjection,
  messagesProjection,
  proposalsProjection,
  reviewsProjection,
  reviewStatsProjection,
  settingsProjection,
  auditLogProjection,
];
