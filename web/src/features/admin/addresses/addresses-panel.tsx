import { useState } from 'react';
import { Message } from '../../../components/ui/message.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { LOW_POOL } from '../routes/admin-tabs.ts';
import { NoticeLine } from '../shared/notice-line.tsx';
import { PanelHead } from '../shared/panel-head.tsx';
import { useNotice } from '../../../hooks/use-notice.ts';
import { type PoolAddress, useAddresses } from './api/get-addresses.ts';
import { useNetwork } from './api/get-network.ts';
import { type AddReport, AddAddressesForm } from './components/add-addresses-form.tsx';
import { AddressTable } from './components/address-table.tsx';
import { DeleteAddressDialog } from './components/delete-address-dialog.tsx';
import { EditAddressDialog } from './components/edit-address-dialog.tsx';

function Report({ report }: { report: AddReport }) {
  return (
    <div className="add-report">
      {report.added.length > 0 && (
        <Message tone="success">
          Added {report.added.length} address{report.added.length === 1 ? '' : 'es'} to the pool.
        </Message>
      )}
      {report.refused.length > 0 && (
        <Message tone="error">
          <p>Not added:</p>
          <ul>
            {report.refused.map((r) => (
              <li key={r.address}>
                <span className="mono break">{r.address}</span>: {r.reason}
              </li>
            ))}
          </ul>
        </Message>
      )}
    </div>
  );
}

/** Addresses: the payment address pool, adding (one or many), editing and deleting the available ones. */
export function AddressesPanel() {
  const addresses = useAddresses();
  const network = useNetwork();
  const [report, setReport] = useState<AddReport | null>(null);
  const [editing, setEditing] = useState<PoolAddress | null>(null);
  const [deleting, setDeleting] = useState<PoolAddress | null>(null);
  const { notice, success } = useNotice();
  const available = addresses.data?.filter((a) => a.status === 'available').length ?? 0;
  const knownNetwork = network.data ?? (addresses.data?.[0]?.network as typeof network.data | undefined) ?? null;
  return (
    <>
      <PanelHead title="Addresses">
        Buyers pay to these addresses. A buyer who asks for one when none is free waits for you.
      </PanelHead>
      {addresses.isSuccess && available < LOW_POOL && (
        <p className="warning" role="status">
          Only {available} free address{available === 1 ? '' : 'es'} left: add more so buyers are not kept waiting.
        </p>
      )}
      <AddAddressesForm network={knownNetwork} onReport={setReport} />
      {report && <Report report={report} />}
      <NoticeLine notice={notice} />
      <QueryState
        query={addresses}
        errorFallback="Failed to load addresses"
        isEmpty={(list) => list.length === 0}
        empty="The pool is empty. Add the addresses buyers will pay to."
      >
        {(list) => (
          <>
            <p className="small muted">
              {list.length} in the pool: {available} available, {list.filter((a) => a.status === 'assigned').length}{' '}
              assigned, {list.filter((a) => a.status === 'used').length} used.
            </p>
            <AddressTable addresses={list} onEdit={setEditing} onDelete={setDeleting} />
          </>
        )}
      </QueryState>
      <EditAddressDialog address={editing} network={knownNetwork} onClose={() => setEditing(null)} onDone={success} />
      <DeleteAddressDialog address={deleting} onClose={() => setDeleting(null)} onDone={success} />
    </>
  );
}
