import { type ComponentType, useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../../api/client.ts';
import { useAuth } from '../../../auth/auth-context.tsx';
import { ConversationPanel } from '../../../components/conversation/conversation-panel.tsx';
import { usePageMeta } from '../../../components/page-meta.ts';
import { useClockChange } from '../../../hooks/use-clock-change.ts';
import { Message } from '../../../components/ui/message.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { EscrowStatusBadge } from '../../../components/ui/escrow-status-badge.tsx';
import { useEscrow } from '../api/get-escrow.ts';
import { EscrowActionsPanel } from '../components/escrow-actions-panel.tsx';
import { DealFacts } from '../components/deal-facts.tsx';
import { EscrowDetails } from '../components/escrow-details.tsx';
import { EscrowPageSkeleton } from '../components/escrow-skeletons.tsx';
import { ProposalsPanel } from '../components/proposals-panel.tsx';
import { ReviewInvite } from '../components/review-invite.tsx';
import { PaymentMarks } from '../components/payment-marks.tsx';
import { EscrowTimeline } from '../components/escrow-timeline.tsx';
import { StatusTracker } from '../components/status-tracker.tsx';
import { statusNote } from '../model/escrow-progress.ts';
import { nextStepFor } from '../model/next-step.ts';
import { trackerSteps } from '../model/tracker-steps.ts';
import '../escrows.css';
import { isVerifiedDeal } from '../../../../../domain/review/verified-deal.ts';

const NOTICE_MS = 3000;

/** What the app mounts under the history: the escrow's proof in the transparency log (another feature's). */
export type EscrowProofSlot = ComponentType<{ escrowId: string; updatedAt: string }>;

/** One escrow: where it stands, the one next step for this user, every detail, and what happened when. */
export function EscrowPage({ proofCard: ProofCard }: { proofCard?: EscrowProofSlot }) {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const [notice, setNotice] = useState<string | null>(null);
  const escrow = useEscrow(id);
  useClockChange(escrow.data, () => void escrow.refetch());
  usePageMeta(
    escrow.data ? `Escrow: ${escrow.data.product_service}` : 'Escrow',
    'An escrow: its status, details, history and your next step.',
  );

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  if (!user) return null;
  const notFound = escrow.error instanceof ApiError && escrow.error.status === 404;
  if (notFound) {
    return (
      <article className="escrows-page">
        <h1>Escrow not found</h1>
        <p>
          There is no escrow here that you are a party to. If it was opened with your e-mail address, verify that
          address first.
        </p>
        <p>
          <Link to="/dashboard">Back to My Escrows</Link>
        </p>
      </article>
    );
  }

  return (
    <article className="escrows-page">
      <p className="small">
        <Link to="/dashboard">← My Escrows</Link>
      </p>
      <QueryState
        query={escrow}
        loading={<EscrowPageSkeleton />}
        errorFallback="This escrow cannot be loaded right now."
      >
        {(data) => {
          const note = statusNote(data);
          return (
            <>
              <div className="page-head escrow-head">
                <div>
                  <p className="eyebrow">
                    {data.side === 'admin' ? 'Escrow (admin view)' : `Escrow · you are the ${data.side}`}
                  </p>
                  <h1>{data.product_service}</h1>
                </div>
                <div className="escrow-status">
                  <EscrowStatusBadge escrow={data} />
                  {note && <p className="small status-note">{note}</p>}
                </div>
              </div>
              <StatusTracker steps={trackerSteps(data)} />
              {notice && <Message tone="success">{notice}</Message>}
              <section className="card next-step" aria-labelledby="next-heading">
                <h2 id="next-heading">Next step</h2>
                <p>{nextStepFor(data)}</p>
                {data.side === 'admin' && (
                  <p>
                    <Link to={`/admin?tab=escrows&escrow=${data.id}`}>Open this escrow in the admin console</Link>
                  </p>
                )}
                <EscrowActionsPanel
                  escrow={data}
                  totpEnabled={user.totp_enabled}
                  startWithPayment={params.get('pay') === '1'}
                  onPaymentShown={() => params.has('pay') && setParams({}, { replace: true })}
                  onNotice={setNotice}
                />
              </section>
              {isVerifiedDeal(data, data.side) && <ReviewInvite escrowId={data.id} />}
              <ProposalsPanel
                escrow={data}
                proposals={data.proposals ?? []}
                allowed={data.allowed_actions}
                onNotice={setNotice}
              />
              <DealFacts escrow={data} />
              <EscrowDetails escrow={data} />
              <PaymentMarks evidence={data.evidence ?? []} side={data.side} />
              <ConversationPanel
                escrowId={data.id}
                viewerSide={data.side}
                canPost={data.allowed_actions.includes('post_message')}
              />
              <section className="card" aria-labelledby="history-heading">
                <h2 id="history-heading">History</h2>
                <EscrowTimeline id={data.id} updatedAt={data.updated_at} side={data.side} />
              </section>
              {ProofCard && <ProofCard escrowId={data.id} updatedAt={data.updated_at} />}
            </>
          );
        }}
      </QueryState>
    </article>
  );
}
