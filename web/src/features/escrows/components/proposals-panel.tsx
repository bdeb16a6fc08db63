import { displayUsd, usdNumberToCents } from '../../../../../domain/money.ts';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { formatBtc, formatDateTime } from '../../../lib/format.ts';
import { useAcceptProposal, useDeclineProposal, useWithdrawProposal } from '../api/proposals.ts';
import type { Escrow, EscrowAction, Proposal } from '../api/types.ts';
import { KIND_LABELS, splitShares } from '../model/proposal-terms.ts';

const STATUS_WORDS: Record<Proposal['status'], string> = {
  open: 'waiting for an answer',
  accepted: 'accepted',
  declined: 'declined',
  withdrawn: 'withdrawn',
};

type Money = Pick<Escrow, 'amount_sats' | 'amount_usd' | 'escrow_fee' | 'total_usd'>;

/** What a proposal means in money and days, in words. */
function terms(proposal: Proposal, escrow: Money): string {
  switch (proposal.kind) {
    case 'split': {
      const percent = proposal.seller_percent ?? 0;
      const shares = splitShares(escrow, percent);
      const seller = proposal.seller_sats ?? shares.seller_sats;
      const buyer = proposal.buyer_sats ?? shares.buyer_sats;
      return `${percent}% to the seller: ${formatBtc(seller)} (${displayUsd(shares.seller_cents)}); ${100 - percent}% back to the buyer: ${formatBtc(buyer)} (${displayUsd(shares.buyer_cents)})`;
    }
    case 'refund':
      return `All of it back to the buyer: ${formatBtc(proposal.buyer_sats ?? escrow.amount_sats)} (${displayUsd(usdNumberToCents(escrow.total_usd))})`;
    case 'extend_deadline':
    case 'extend_inspection':
      return `${proposal.days ?? 0} more ${proposal.days === 1 ? 'day' : 'days'}`;
    case 'cancel':
      return 'Nobody pays; the escrow closes for both of you';
    default: {
      const unknown: never = proposal.kind;
      return unknown;
    }
  }
}

interface ProposalsPanelProps {
  escrow: Money & Pick<Escrow, 'id' | 'side'>;
  proposals: readonly Proposal[];
  allowed: readonly EscrowAction[];
  onNotice: (text: string) => void;
}

/** Settlement proposals, newest first; the open one with the answers this user may give, one click each. */
export function ProposalsPanel({ escrow, proposals, allowed, onNotice }: ProposalsPanelProps) {
  const accept = useAcceptProposal(escrow.id);
  const decline = useDeclineProposal(escrow.id);
  const withdraw = useWithdrawProposal(escrow.id);
  if (proposals.length === 0) return null;
  const failure = accept.error ?? decline.error ?? withdraw.error;
  const busy = accept.isPending || decline.isPending || withdraw.isPending;
  const byWhom = (proposal: Proposal) => (proposal.proposed_by === escrow.side ? 'you' : `the ${proposal.proposed_by}`);

  return (
    <section className="card" aria-labelledby="proposals-heading">
      <h2 id="proposals-heading">Proposals</h2>
      {failure && <Message tone="error">{messageOf(failure, 'Failed to answer the proposal')}</Message>}
      <ol className="stacked-list">
        {[...proposals].reverse().map((proposal) => {
          const open = proposal.status === 'open';
          return (
            <li key={proposal.id} className={`proposal${open ? ' proposal-open' : ''}`}>
              <p className="proposal-what">
                <strong>{KIND_LABELS[proposal.kind]}</strong>, proposed by {byWhom(proposal)}:{' '}
                {STATUS_WORDS[proposal.status]}
              </p>
              <p>{terms(proposal, escrow)}</p>
              {proposal.note && <p className="small pre-wrap">“{proposal.note}”</p>}
              <p className="small muted">{formatDateTime(proposal.created_at)}</p>
              {open && (
                <div className="actions">
                  {allowed.includes('accept_proposal') && (
                    <Button
                      busy={accept.isPending}
                      disabled={busy}
                      onClick={() =>
                        accept.mutate({ proposalId: proposal.id }, { onSuccess: () => onNotice('Proposal accepted.') })
                      }
                    >
                      Accept
                    </Button>
                  )}
                  {allowed.includes('decline_proposal') && (
                    <Button
                      variant="secondary"
                      busy={decline.isPending}
                      disabled={busy}
                      onClick={() =>
                        decline.mutate({ proposalId: proposal.id }, { onSuccess: () => onNotice('Proposal declined.') })
                      }
                    >
                      Decline
                    </Button>
                  )}
                  {allowed.includes('withdraw_proposal') && (
                    <Button
                      variant="ghost"
                      busy={withdraw.isPending}
                      disabled={busy}
                      onClick={() =>
                        withdraw.mutate(
                          { proposalId: proposal.id },
                          { onSuccess: () => onNotice('Proposal withdrawn.') },
                        )
                      }
                    >
                      Withdraw
                    </Button>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
