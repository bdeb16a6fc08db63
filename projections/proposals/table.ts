import type { ColumnType } from 'kysely';
import type { ProposalKind } from '../../domain/escrow/events.ts';

type OptionalTime = ColumnType<Date | null, string | null, string | null>;

/** One settlement proposal on an escrow (contract 7.5), its terms and where it stands. */
export interface ProposalsTables {
  escrow_proposals: {
    id: string;
    escrow_id: string;
    /** The event's position in the log: the proposals' order. */
    position: number;
    kind: ProposalKind;
    status: 'open' | 'accepted' | 'declined' | 'withdrawn';
    proposed_by: 'buyer' | 'seller';
    seller_percent: number | null;
    days: number | null;
    note: string | null;
    /** What each side would receive, for a refund or a split (null for the other kinds). */
    seller_sats: number | null;
    buyer_sats: number | null;
    decline_reason: string | null;
    answered_at: OptionalTime;
    created_at: ColumnType<Date, string, string>;
  };
}
