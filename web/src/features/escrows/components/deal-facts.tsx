import { formatDateTime } from '../../../lib/format.ts';
import type { Escrow } from '../api/types.ts';
import { Fact, FactsList } from './facts-list.tsx';

const METHOD_WORDS: Record<NonNullable<Escrow['shipment']>['method'], string> = {
  shipping: 'Shipped by a carrier',
  digital: 'Delivered digitally',
  service: 'A service',
};
const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

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
      <FactsList>
        {!escrow.declined_at && (
          <Fact label="Terms agreed">
            {escrow.agreed_at ? (
              `by the ${counterparty}, ${formatDateTime(escrow.agreed_at)}`
            ) : (
              <span className="muted">Not yet by the {counterparty}</span>
            )}
          </Fact>
        )}
        {inspectionDays !== null && (
          <Fact label="Inspection period">
            {inspectionDays === 0 ? 'None: accepted on receipt' : days(inspectionDays)}
          </Fact>
        )}
        {shipment && escrow.shipped_at && (
          <>
            <Fact label="Shipped">{`${METHOD_WORDS[shipment.method]}, ${formatDateTime(escrow.shipped_at)}`}</Fact>
            {shipment.carrier && <Fact label="Carrier">{shipment.carrier}</Fact>}
            {shipment.tracking && (
              <Fact label="Tracking number">
                <span className="mono break">{shipment.tracking}</span>
              </Fact>
            )}
            {shipment.note && (
              <Fact label="Seller's note">
                <span className="pre-wrap">{shipment.note}</span>
              </Fact>
            )}
          </>
        )}
        {escrow.declined_at && (
          <Fact label="Declined">
            <span className="pre-wrap">{`by the ${counterparty}, ${formatDateTime(escrow.declined_at)}${escrow.decline_reason ? `: ${escrow.decline_reason}` : ''}`}</span>
          </Fact>
        )}
        {escrow.received_at && <Fact label="Received">{formatDateTime(escrow.received_at)}</Fact>}
        {escrow.inspection_ends_at && <Fact label="Inspection ends">{formatDateTime(escrow.inspection_ends_at)}</Fact>}
      </FactsList>
    </section>
  );
}
