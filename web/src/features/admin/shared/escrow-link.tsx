import { Link } from 'react-router-dom';

/** `/admin?tab=escrows&escrow={id}`: where an escrow is shown with its actions and history (the links mails use too). */
export const escrowHref = (id: string) => `/admin?tab=escrows&escrow=${encodeURIComponent(id)}`;

/** An escrow named anywhere in the console links to its page there (details, actions, history). */
export function EscrowLink({ id, children }: { id: string; children?: React.ReactNode }) {
  return (
    <Link to={escrowHref(id)} className="mono" title={`Escrow ${id}`}>
      {children ?? `${id.slice(0, 8)}…`}
    </Link>
  );
}
