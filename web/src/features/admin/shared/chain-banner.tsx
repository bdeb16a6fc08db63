import { Link } from 'react-router-dom';
import { Message } from '../../../components/ui/message.tsx';
import { useHealth } from './api/get-health.ts';

/**
 * Over every tab of the console while the server's own check finds the event log changed: money is stopped (the
 * servers keep serving), and the Ledger tab says where and lets an admin check again.
 */
export function ChainBanner() {
  const health = useHealth();
  if (health.data?.chain !== 'broken') return null;
  return (
    <Message tone="error">
      <strong>The event log failed its integrity check.</strong> Payment verifications, releases, refunds and splits are
      stopped until it verifies again. <Link to="/admin?tab=ledger">See where it breaks on the Ledger tab</Link>.
    </Message>
  );
}
