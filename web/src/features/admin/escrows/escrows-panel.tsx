import { useSearchParams } from 'react-router-dom';
import { Pager } from '../../../components/ui/pager.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { NoticeLine } from '../shared/notice-line.tsx';
import { PanelHead } from '../shared/panel-head.tsx';
import { useNotice } from '../../../hooks/use-notice.ts';
import type { EscrowStatus } from './api/get-escrow.ts';
import { ESCROWS_PAGE_SIZE, useEscrows } from './api/get-escrows.ts';
import { EscrowDetail } from './components/escrow-detail.tsx';
import { EscrowFilters } from './components/escrow-filters.tsx';
import { EscrowTable } from './components/escrow-table.tsx';

/** Escrows: every escrow (filter, search and page in the URL, done by the server), or the one named by `escrow=`. */
export function EscrowsPanel() {
  const [params, setParams] = useSearchParams();
  const selected = params.get('escrow');
  const status = (params.get('status') ?? '') as EscrowStatus | '';
  const search = params.get('q') ?? '';
  const ready = params.get('ready') === 'true';
  const page = Math.max(0, Number(params.get('page') ?? 0) || 0);
  const escrows = useEscrows({ status, search, ready, page });
  const { notice, success } = useNotice();
  const update = (next: Record<string, string>) => {
    const merged = new URLSearchParams({ tab: 'escrows' });
    for (const [key, value] of Object.entries({ status, q: search, ready: ready ? 'true' : '', ...next }))
      if (value && value !== '0') merged.set(key, value);
    setParams(merged);
  };
  return (
    <>
      <PanelHead title="Escrows">Every escrow. Open one for its details, your actions on it and its history.</PanelHead>
      <NoticeLine notice={notice} />
      {selected ? (
        <EscrowDetail escrowId={selected} onDone={success} />
      ) : (
        <>
          <EscrowFilters
            status={status}
            search={search}
            ready={ready}
            onChange={(next) =>
              update({ status: next.status, q: next.search, ready: next.ready ? 'true' : '', page: '0' })
            }
          />
          <QueryState
            query={escrows}
            errorFallback="Failed to load escrows"
            isEmpty={(p) => p.escrows.length === 0}
            empty={
              ready && !status && !search
                ? 'No escrow is ready to release.'
                : status || search || ready
                  ? 'No escrow matches these filters.'
                  : 'No escrows yet.'
            }
          >
            {(p) => (
              <>
                <p className="small muted" aria-live="polite">
                  {p.total} escrow{p.total === 1 ? '' : 's'}
                  {p.total > ESCROWS_PAGE_SIZE &&
                    `, ${page * ESCROWS_PAGE_SIZE + 1} to ${page * ESCROWS_PAGE_SIZE + p.escrows.length} shown`}
                </p>
                <EscrowTable escrows={p.escrows} />
                <Pager
                  page={page}
                  hasNext={(page + 1) * ESCROWS_PAGE_SIZE < p.total}
                  onPage={(n) => update({ page: String(n) })}
                  label="Escrow pages"
                />
              </>
            )}
          </QueryState>
        </>
      )}
    </>
  );
}
