import { AlertTriangle } from 'lucide-react';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { formatAge, formatDateTime, formatUsd } from '../../../lib/format.ts';
import { NoticeLine } from '../shared/notice-line.tsx';
import { PanelHead } from '../shared/panel-head.tsx';
import { useNotice } from '../../../hooks/use-notice.ts';
import { type Pricing, usePricing } from './api/get-pricing.ts';
import { type SettingsChange, useSettingsChanges } from './api/get-settings-changes.ts';
import { PricingForm } from './components/pricing-form.tsx';

const DAY_MS = 86_400_000;
const by = (changes: SettingsChange[] | undefined, type: string) =>
  changes?.find((c) => c.action_type === type)?.actor_username ?? null;

function Current({
  pricing,
  changes,
  now,
}: {
  pricing: Pricing | null;
  changes: SettingsChange[] | undefined;
  now: number;
}) {
  if (!pricing) {
    return (
      <p className="warning" role="status">
        <AlertTriangle size={16} aria-hidden="true" /> No BTC/USD rate is set: nobody can open an escrow until you set
        one.
      </p>
    );
  }
  const stale = now - new Date(pricing.rate_set_at).getTime() > DAY_MS;
  const rateBy = by(changes, 'BtcRateSet');
  const feeBy = by(changes, 'FeeSet');
  return (
    <>
      <dl className="facts">
        <dt>BTC/USD rate</dt>
        <dd>
          <strong>{formatUsd(pricing.btc_usd_rate)}</strong> per BTC, set {formatAge(pricing.rate_set_at)} (
          {formatDateTime(pricing.rate_set_at)}){rateBy && ` by ${rateBy}`}
        </dd>
        <dt>Fee</dt>
        <dd>
          <strong>{pricing.fee_percentage}%</strong> of the amount
          {pricing.fee_set_at
            ? `, set ${formatDateTime(pricing.fee_set_at)}${feeBy ? ` by ${feeBy}` : ''}`
            : ' (the default)'}
        </dd>
      </dl>
      {stale && (
        <p className="warning" role="status">
          <AlertTriangle size={16} aria-hidden="true" /> The rate is older than a day: new escrows are priced with it.
          Check the market and set it again.
        </p>
      )}
    </>
  );
}

/** Settings: the BTC/USD rate and the fee, when and by whom each was set, and setting them. */
export function SettingsPanel() {
  const pricing = usePricing();
  const changes = useSettingsChanges();
  const { notice, success } = useNotice();
  return (
    <>
      <PanelHead title="Settings">
        The rate and fee every new escrow is priced with. There is no price feed: an admin sets the rate.
      </PanelHead>
      <NoticeLine notice={notice} />
      <QueryState query={pricing} errorFallback="Failed to load the rate">
        {(current) => (
          <div className="card stack">
            <Current pricing={current} changes={changes.data} now={pricing.dataUpdatedAt} />
            <PricingForm key={current?.rate_set_at ?? 'none'} pricing={current} onDone={success} />
          </div>
        )}
      </QueryState>
    </>
  );
}
