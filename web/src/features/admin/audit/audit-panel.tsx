import { useSearchParams } from 'react-router-dom';
import { type Column, DataTable } from '../../../components/ui/data-table.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useCursorPages } from '../../../hooks/use-cursor-pages.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { EscrowLink } from '../shared/escrow-link.tsx';
import { PanelHead } from '../shared/panel-head.tsx';
import { AUDIT_PAGE_SIZE, type AuditEntry, type AuditFilters as Filters, useAuditLogs } from './api/get-audit-logs.ts';
import { AuditFilters } from './components/audit-filters.tsx';
import { actorName, sentence } from '../shared/event-words.ts';

const KEYS = ['action_type', 'object_type', 'object_id', 'actor', 'from', 'to'] as const;

const COLUMNS: Column<AuditEntry>[] = [
  { header: 'Time', cell: (e) => formatDateTime(e.timestamp) },
  {
    header: 'Action',
    className: 'break',
    cell: (e) => (
      <>
        <strong>{sentence(e.summary)}</strong>
        <div className="small muted mono">{e.action_type}</div>
      </>
    ),
  },
  {
    header: 'Object',
    className: 'small',
    cell: (e) => (
      <>
        {e.object_type}{' '}
        {e.object_type === 'escrow' ? (
          <EscrowLink id={e.object_id} />
        ) : e.object_name ? (
          e.object_name
        ) : (
          <span className="mono">{e.object_id.slice(0, 8)}</span>
        )}
      </>
    ),
  },
  { header: 'Actor', className: 'small', cell: actorName },
];

/** Audit: every event in words, newest first, filtered (in the URL) and paged by the server. */
export function AuditPanel() {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(KEYS.map((k) => [k, params.get(k) ?? ''])) as unknown as Filters;
  // Each page's cursor: the id the page before it ended at (null for the first page).
  const pages = useCursorPages<number | null>(null);
  const logs = useAuditLogs(filters, pages.cursor);
  const apply = (next: Filters) => {
    const merged = new URLSearchParams({ tab: 'audit' });
    for (const k of KEYS) if (next[k]) merged.set(k, next[k]);
    pages.reset();
    setParams(merged);
  };
  return (
    <>
      <PanelHead title="Audit">
        Every change, who made it and when, newest first. The raw events are on the Ledger tab.
      </PanelHead>
      <AuditFilters filters={filters} onApply={apply} />
      <QueryState
        query={logs}
        errorFallback="Failed to load the audit log"
        isEmpty={(list) => list.length === 0}
        empty="No entries match these filters."
      >
        {(list) => (
          <>
            <DataTable caption="Audit log" columns={COLUMNS} rows={list} rowKey={(e) => e.id} />
            <Pager
              page={pages.page}
              hasNext={list.length === AUDIT_PAGE_SIZE}
              onPage={(n) => pages.pageTo(n, () => list.at(-1)!.id)}
              label="Audit log pages"
            />
          </>
        )}
      </QueryState>
    </>
  );
}
