import { usePricing } from '../../../api/site.ts';
import type { User as CurrentUser } from '../../../../../contract/users.ts';
import { ApiError } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import type { Escrow } from '../api/types.ts';
import { CreateEscrowForm } from './create-escrow-form.tsx';

interface CreateEscrowDialogProps {
  user: CurrentUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (escrow: Escrow) => void;
}

/** Opens an escrow; without a BTC rate set by an admin there is nothing to price it with, so no form is offered. */
export function CreateEscrowDialog({ user, open, onOpenChange, onCreated }: CreateEscrowDialogProps) {
  const pricing = usePricing();
  const noRate = pricing.error instanceof ApiError && pricing.error.code === 'not_ready' ? pricing.error : null;
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Create Escrow" description="The buyer pays the total in Bitcoin; the money is held until the deal is done.">
      {noRate ? (
        <div className="query-error" role="alert">
          <p>{noRate.message}</p>
          <p className="small">Escrows cannot be opened until an admin sets the BTC/USD rate. Try again later.</p>
          <Button variant="secondary" busy={pricing.isRefetching} onClick={() => void pricing.refetch()}>
            Retry
          </Button>
        </div>
      ) : (
        <QueryState query={pricing} errorFallback="The current BTC rate cannot be read right now.">
          {(data) => <CreateEscrowForm user={user} pricing={data} onCreated={onCreated} onCancel={() => onOpenChange(false)} />}
        </QueryState>
      )}
    </Modal>
  );
}
