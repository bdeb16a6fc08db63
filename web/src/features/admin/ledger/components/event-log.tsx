import { type FormEvent, useState } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { type Column, DataTable } from '../../../../components/ui/data-table.tsx';
import { Field } from '../../../../components/ui/field.tsx';
import { Pager } from '../../../../components/ui/pager.tsx';
import { useCursorPages } from '../../../../hooks/use-cursor-pages.ts';
import { QueryState } from '../../../../components/ui/query-state.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { EscrowLink } from '../../shared/escrow-link.tsx';
import { EVENTS_PAGE_SIZE, type EventFilters, type LedgerEvent, useEvents } from '../api/get-events.ts';

const STREAM_TYPES = ['escrow', 'address', 'user', 'review', 'settings'];
const NONE: EventFilters = { stream_id: '', stream_type: '', type: '' };

function Stream({ id }: { id: string }) {
  const [type, rest] = [id.slice(0, id.indexOf(':')), id.slice(id.indexOf(':') + 1)];
  return type === 'escrow' ? (
    <>
      escrow <EscrowLink id={rest} />
    </>
  ) : (
    <span className="mono">{id.length > 24 ? `${id.slice(0, 24)}…` : id}</span>
  );
}

const COLUMNS: Column<LedgerEvent>[] = [
  { header: 'Position', className: 'mono', cell: (e) => e.position },
  {
    header: 'Event',
    cell: (e) => (
      <details>
        <summary>
          <strong>{e.type}</strong>
        </summary>
        <pre className="event-data">{JSON.stringify(e.data, null, 2)}</pre>
        <p className="small mono break">hash {e.hash}</p>
        <p className="small mono break">prev {e.prev_hash}</p>
      </details>
    ),
  },
  {
    header: 'Stream',
    className: 'small',
    cell: (e) => (
      <>
        <Stream id={e.stream_id} /> v{e.stream_version}
      </>
    ),
  },
  {
    header: 'Time and actor',
    className: 'small',
    cell: (e) => (
      <>
        {formatDateTime(e.occurred_at)}
        <div className="muted mono">{e.metadata.actor.slice(0, 13)}</div>
      </>
    ),
  },
];

/** The raw log by position: stream, type, actor, hash, and each event's data on demand. */
export function EventLog() {
  const [draft, setDraft] = useState(NONE);
  const [filters, setFilters] = useState(NONE);
  // Each page starts after the last position of the page before it.
  const pages = useCursorPages(0);
  const events = useEvents(filters, pages.cursor);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    pages.reset();
  };
  return (
    <section className="stack" aria-labelledby="events-title">
      <h3 id="events-title">Events</h3>
      <form className="filters-row" onSubmit={submit} role="search" aria-label="Filter the events">
        <Field label="Stream type">
          <select value={draft.stream_type} onChange={(e) => setDraft({ ...draft, stream_type: e.target.value })}>
            <option value="">Any</option>
            {STREAM_TYPES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Stream id" hint="e.g. escrow:{id}">
          <input
            className="mono"
            value={draft.stream_id}
            onChange={(e) => setDraft({ ...draft, stream_id: e.target.value })}
          />
        </Field>
        <Field label="Event type">
          <input
            value={draft.type}
            onChange={(e) => setDraft({ ...draft, type: e.target.value })}
            placeholder="e.g. PaymentVerified"
          />
        </Field>
        <Button type="submit" variant="secondary">
          Show events
        </Button>
      </form>
      <QueryState
        query={events}
        errorFallback="Failed to load the events"
        isEmpty={(list) => list.length === 0}
        empty="No events match."
      >
        {(list) => (
          <>
            <DataTable caption="Events by position" columns={COLUMNS} rows={list} rowKey={(e) => e.position} />
            <Pager
              page={pages.page}
              hasNext={list.length === EVENTS_PAGE_SIZE}
              onPage={(n) => pages.pageTo(n, () => list.at(-1)!.position)}
              label="Event pages"
            />
          </>
        )}
      </QueryState>
    </section>
  );
}
