import { formatDateTime } from '../../../lib/format.ts';
import type { Escrow } from '../api/types.ts';

const METHOD_WORDS: Record<NonNullable<Escrow['shipment']>['method'], string> = {
  shipping: 'Shipped by a carrier',
  digital: 'Delivered digitally',
  service: 'A service',
};
const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The deal's agreement, shipment and inspection, as far as they have gone. */
export function DealFacts({ escrow }: { escrow: Escrow }) {
  // An answer without the agreement fields comes from before those steps were recorded.
  if (escrow.agreed_at === undefined) return null;
  const shipment = escrow.shipment;
  const inspectionDays = escrow.inspection_days ?? null;
  const counterparty = escrow.creator_side === 'buyer' ? 'seller' : 'buyer';
  return (
    <section className="card" aria-labelledby="delivery-heading">
      <h2 id="delivery-heading">Agreement and delivery</h2>
      <dl className="facts-list">
        {!escrow.declined_at && (
          <Row label="Terms agreed">
            {escrow.agreed_at ? `by the ${counterparty}, ${formatDateTime(escrow.agreed_at)}` : <span className="muted">Not yet by the {counterparty}</span>}
          </Row>
        )}
        {inspectionDays !== null && <Row label="Inspection period">{inspectionDays === 0 ? 'None: accepted on receipt' : days(inspectionDays)}</Row>}
        {shipment && escrow.shipped_at && (
          <>
            <Row label="Shipped">{`${METHOD_WORDS[shipment.method]}, ${formatDateTime(escrow.shipped_at)}`}</Row>
            {shipment.carrier && <Row label="Carrier">{shipment.carrier}</Row>}
            {shipment.tracking && (
              <Row label="Tracking number">
                <span className="mono break">{shipment.tracking}</span>
              </Row>
            )}
            {shipment.note && (
              <Row label="Seller's note">
                <span className="pre-wrap">{shipment.note}</span>
              </Row>
            )}
          </>
        )}
        {escrow.declined_at && (
          <Row label="Declined">
            <span className="pre-wrap">{`by the ${counterparty}, ${formatDateTime(escrow.declined_at)}${escrow.decline_reason ? `: ${escrow.decline_reason}` : ''}`}</span>
          </Row>
        )}
        {escrow.received_at && <Row label="Received">{formatDateTime(escrow.received_at)}</Row>}
        {escrow.inspection_ends_at && <Row label="Inspection ends">{formatDateTime(escrow.inspection_ends_at)}</Row>}
      </dl>
    </section>
  );
}
