import type { WebhookDelivery } from '../../../../contract/webhooks.ts';
import { formatDateTime } from '../../lib/format.ts';
import { Button } from '../ui/button.tsx';

const STATUS_WORDS: Record<WebhookDelivery['status'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

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
  return (
    <table className="delivery-log">
      <caption className="visually-hidden">Deliveries, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Status</th>
          <th scope="col">Attempts (HTTP status)</th>
          <th scope="col">Queued</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((d) => (
          <tr key={d.id}>
            <td data-label="Event">
              <span className="mono">{d.event_type}</span>
              {d.event_position !== null && <span className="muted small"> at #{d.event_position}</span>}
              <div className="muted small mono">{d.webhook_id}</div>
            </td>
            <td data-label="Status">
              <span className={`badge badge-delivery-${d.status}`}>{STATUS_WORDS[d.status]}</span>
              {d.status === 'pending' && d.next_attempt_at && (
                <div className="muted small">next try {formatDateTime(d.next_attempt_at)}</div>
              )}
            </td>
            <td data-label="Attempts">
              {d.log.length === 0
                ? 'none yet'
                : d.log.map((a) => (
                    <div key={a.attempted_at} className="small">
                      {a.status_code ?? 'no answer'} · {formatDateTime(a.attempted_at)}
                      {a.error && <span className="muted"> · {a.error}</span>}
                    </div>
                  ))}
            </td>
            <td data-label="Queued">{formatDateTime(d.created_at)}</td>
            <td>
              <Button
                variant="secondary"
                busy={busyId === d.id}
                onClick={() => onRedeliver(d.id)}
                aria-label={`Redeliver ${d.event_type} ${d.webhook_id}`}
              >
                Redeliver
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
