import type { Escrow } from '../../../../contract/escrows.ts';
import { splitOf } from '../../lib/escrow-split.ts';
import { StatusBadge } from './status-badge.tsx';

/** An escrow's badge: its status, except that a split says "Split" rather than "Released". */
export function EscrowStatusBadge({ escrow }: { escrow: Pick<Escrow, 'status' | 'dispute' | 'proposals'> }) {
  return <StatusBadge status={escrow.status} {...(splitOf(escrow) ? { label: 'Split' } : {})} />;
}
