import { displayBtc, displayUsd } from '../../../../../domain/money.ts';
import { formatAge, formatUsd } from '../../../lib/format.ts';
import type { LiveQuote, Pricing } from '../model/live-quote.ts';

/** The fee, total and BTC the escrow will fix, as the amount is typed, with the rate and how old it is. */
export function LiveFigures({ figures, pricing }: { figures: LiveQuote; pricing: Pricing & { rate_set_at: string } }) {
  return (
    <section className="live-figures" aria-label="What the buyer pays" aria-live="polite">
      <dl>
        <div>
          <dt>Escrow fee ({pricing.fee_percentage}%)</dt>
          <dd data-testid="live-fee">{figures.ok ? displayUsd(figures.fee_cents) : '-'}</dd>
        </div>
        <div>
          <dt>Total</dt>
          <dd data-testid="live-total">{figures.ok ? displayUsd(figures.total_cents) : '-'}</dd>
        </div>
        <div>
          <dt>In Bitcoin</dt>
          <dd data-testid="live-btc" className="mono">
            {figures.ok ? displayBtc(figures.amount_sats) : '-'}
          </dd>
        </div>
      </dl>
      <p className="small muted">
        At {formatUsd(pricing.btc_usd_rate)} per BTC, a rate set {formatAge(pricing.rate_set_at)}. The BTC amount is
        fixed when the escrow is opened.
      </p>
    </section>
  );
}
