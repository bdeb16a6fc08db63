import { type FormEvent, useState } from 'react';
import { parsePercentToBps, parseRateToCents } from '../../../../../../domain/money.ts';
import { Button } from '../../../../components/ui/button.tsx';
import { Field } from '../../../../components/ui/field.tsx';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import type { Pricing } from '../api/get-pricing.ts';
import { useSetPricing } from '../api/set-pricing.ts';

/** The server's own parsing (domain/money.ts): the refusal it would give, or null. */
function refusal(check: () => unknown): string | null {
  try {
    check();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Sets the BTC/USD rate and the fee, checked here as the server checks them, after a confirmation. */
export function PricingForm({ pricing, onDone }: { pricing: Pricing | null; onDone: (message: string) => void }) {
  const [rate, setRate] = useState(pricing ? String(pricing.btc_usd_rate) : '');
  const [fee, setFee] = useState(pricing ? String(pricing.fee_percentage) : '');
  const [errors, setErrors] = useState<{ rate?: string; fee?: string }>({});
  const [confirming, setConfirming] = useState(false);
  const setPricing = useSetPricing();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      rate: refusal(() => parseRateToCents(rate.trim())) ?? undefined,
      fee: fee.trim() ? (refusal(() => parsePercentToBps(fee.trim())) ?? undefined) : undefined,
    };
    setErrors(found);
    if (!found.rate && !found.fee) setConfirming(true);
  };
  return (
    <form className="form pricing-form" onSubmit={submit} noValidate>
      <div className="form-row">
        <Field
          label="BTC/USD rate (USD per bitcoin)"
          error={errors.rate}
          required
          hint="Up to 2 decimals, e.g. 65432.10"
        >
          <input value={rate} onChange={(e) => setRate(e.target.value)} inputMode="decimal" autoComplete="off" />
        </Field>
        <Field label="Fee (percent)" error={errors.fee} hint="0 to 100, up to 2 decimals; empty keeps the fee in force">
          <input value={fee} onChange={(e) => setFee(e.target.value)} inputMode="decimal" autoComplete="off" />
        </Field>
      </div>
      <div>
        <Button type="submit">Set rate and fee</Button>
      </div>
      <ActionDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Set the rate and fee?"
        description="New escrows are priced with these; escrows already opened keep the amount they were given."
        confirmLabel="Set rate and fee"
        fallback="Failed to set the rate"
        run={async (totp_code) => {
          await setPricing.mutateAsync({ btc_usd_rate: rate.trim(), fee_percentage: fee.trim(), totp_code });
          return 'Rate and fee saved';
        }}
        onDone={onDone}
      >
        <dl className="facts">
          <dt>BTC/USD rate</dt>
          <dd className="mono">{rate.trim()} USD</dd>
          <dt>Fee</dt>
          <dd className="mono">{fee.trim() ? `${fee.trim()}%` : 'unchanged'}</dd>
        </dl>
      </ActionDialog>
    </form>
  );
}
