import { usePricing } from '../../../api/site.ts';
import type { User as CurrentUser } from '../../../../../contract/users.ts';
import { ApiError } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import type { Escrow } from '../api/types.ts';
import { CreateEscrowForm } from './create-escrow-form.tsx';
import { UnverifiedNotice } from './unverified-notice.tsx';

interface CreateEscrowDialogProps {
  user: CurrentUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (escrow: Escrow) => void;
}

/**
 * Opens an escrow. No form is offered when it would be refused anyway: to a user whose e-mail is not confirmed yet
 * (the server answers 403), or without a BTC rate set by an admin (nothing to price it with).
 */
export function CreateEscrowDialog({ user, open, onOpenChange, onCreated }: CreateEscrowDialogProps) {
  const pricing = usePricing();
  const noRate = pricing.error instanceof ApiError && pricing.error.code === 'not_ready' ? pricing.error : null;
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Create Escrow"
      description="The buyer pays the total in Bitcoin; the money is held until the deal is done."
    >
      {!user.email_verified ? (
        <UnverifiedNotice email={user.email} onClose={() => onOpenChange(false)} />
      ) : noRate ? (
        <div className="query-error" role="alert">
          <p>{noRate.message}</p>
          <p className="small">Escrows cannot be opened until an admin sets the BTC/USD rate. Try again later.</p>
          <Button variant="secondary" busy={pricing.isRefetching} onClick={() => void pricing.refetch()}>
            Retry
          </Button>
        </div>
      ) : (
        <QueryState query={pricing} errorFallback="The current BTC rate cannot be read right now.">
          {(data) => (
            <CreateEscrowForm user={user} pricing={data} onCreated={onCreated} onCancel={() => onOpenChange(false)} />
          )}
        </QueryState>
      )}
    </Modal>
  );
}
