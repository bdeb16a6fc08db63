import { ButtonLink } from '../../../components/ui/button.tsx';

/** After a completed deal: the review its mail invites, one click away (the form comes with this escrow's id). */
export function ReviewInvite({ escrowId }: { escrowId: string }) {
  return (
    <section className="card" aria-labelledby="review-heading">
      <h2 id="review-heading">How did it go?</h2>
      <p>Tell others about this deal; with the escrow's id your review is marked as a verified deal.</p>
      <ButtonLink variant="secondary" to={`/reviews?review=${encodeURIComponent(escrowId)}`}>
        Write a review
      </ButtonLink>
    </section>
  );
}
