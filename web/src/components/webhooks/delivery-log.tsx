import type { WebhookDelivery } from '../../../../contract/webhooks.ts';
import { formatDateTime } from '../../lib/format.ts';
import { Button } from '../ui/button.tsx';
import { type Column, DataTable } from '../ui/data-table.tsx';

const STATUS_WORDS: Record<WebhookDelivery['status'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

const COLUMNS: Column<WebhookDelivery>[] = [
  {
    header: 'Event',
    cell: (d) => (
      <>
        <span className="mono">{d.event_type}</span>
        {d.event_position !== null && <span className="muted small"> at #{d.event_position}</span>}
        <div className="muted small mono">{d.webhook_id}</div>
      </>
    ),
  },
  {
    header: 'Status',
    cell: (d) => (
      <>
        <span className={`badge badge-delivery-${d.status}`}>{STATUS_WORDS[d.status]}</span>
        {d.status === 'pending' && d.next_attempt_at && (
          <div className="muted small">next try {formatDateTime(d.next_attempt_at)}</div>
        )}
      </>
    ),
  },
  {
    header: 'Attempts (HTTP status)',
    cell: (d) =>
      d.log.length === 0
        ? 'none yet'
        : d.log.map((a) => (
            <div key={a.attempted_at} className="small">
              {a.status_code ?? 'no answer'} · {formatDateTime(a.attempted_at)}
              {a.error && <span className="muted"> · {a.error}</span>}
            </div>
          )),
  },
  { header: 'Queued', cell: (d) => formatDateTime(d.created_at) },
];

/** Deliveries with each attempt's HTTP status code, and Redeliver. */
export function DeliveryLog({
  deliveries,
  onRedeliver,
  busyId,
}: {
  deliveries: WebhookDelivery[];
  onRedeliver: (id: number) => void;
  busyId: number | null;
}) {
  if (deliveries.length === 0)
    return <p className="muted">No deliveries yet. Send a test, or wait for the next escrow event.</p>;
  const redeliver: Column<WebhookDelivery> = {
    header: 'Actions',
    cell: (d) => (
      <Button
        variant="secondary"
        busy={busyId === d.id}
        onClick={() => onRedeliver(d.id)}
        aria-label={`Redeliver ${d.event_type} ${d.webhook_id}`}
      >
        Redeliver
      </Button>
    ),
  };
  return (
    <DataTable
      caption="Deliveries, newest first"
      columns={[...COLUMNS, redeliver]}
      rows={deliveries}
      rowKey={(d) => d.id}
    />
  );
}
