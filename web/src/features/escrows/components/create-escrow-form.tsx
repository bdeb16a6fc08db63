import { type FormEvent, useState } from 'react';
import { ApiError, messageOf } from '../../../api/client.ts';
import type { Rate as Pricing } from '../../../../../contract/pricing.ts';
import type { User as CurrentUser } from '../../../../../contract/users.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { TotpField } from '../../../components/ui/totp-field.tsx';
import { WholeNumberInput } from '../../../components/ui/whole-number-input.tsx';
import { useCreateEscrow } from '../api/create-escrow.ts';
import type { Escrow } from '../api/types.ts';
import { liveQuote } from '../model/live-quote.ts';
import { LiveFigures } from './live-figures.tsx';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const blank = {
  product_service: '',
  counterparty_email: '',
  amount_usd: '',
  description: '',
  deadline_days: '7',
  inspection_days: '3',
  totp_code: '',
};
type Values = typeof blank;
type Errors = Partial<Record<keyof Values, string>>;

function check(values: Values, user: CurrentUser, amountError: string | null): Errors {
  const errors: Errors = {};
  if (!values.product_service.trim()) errors.product_service = 'Product or service is required';
  const email = values.counterparty_email.trim().toLowerCase();
  if (!email) errors.counterparty_email = `The ${user.role === 'seller' ? "buyer's" : "seller's"} e-mail is required`;
  else if (!EMAIL.test(email)) errors.counterparty_email = 'Enter an e-mail address like name@example.com';
  else if (email === user.email.toLowerCase())
    errors.counterparty_email = "The other party's e-mail must differ from your own";
  if (!values.amount_usd.trim()) errors.amount_usd = 'Amount in USD is required';
  else if (amountError) errors.amount_usd = amountError;
  if (!values.description.trim()) errors.description = 'Description and terms are required';
  const days = Number(values.deadline_days);
  if (!/^\d+$/.test(values.deadline_days.trim()) || days < 1 || days > 90)
    errors.deadline_days = 'Payment deadline must be a whole number of days from 1 to 90';
  const inspection = Number(values.inspection_days);
  if (!/^\d+$/.test(values.inspection_days.trim()) || inspection > 30)
    errors.inspection_days = 'Inspection period must be a whole number of days from 0 to 30';
  if (user.totp_enabled && !values.totp_code) errors.totp_code = '2FA code required to create escrow';
  else if (user.totp_enabled && values.totp_code.length !== 6)
    errors.totp_code = 'Enter the 6-digit code from your authenticator app';
  return errors;
}

/** The create form: the counterparty by e-mail, the amount in USD and what the buyer will pay for it, live. */
export function CreateEscrowForm({
  user,
  pricing,
  onCreated,
  onCancel,
}: {
  user: CurrentUser;
  pricing: Pricing;
  onCreated: (escrow: Escrow) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState(blank);
  // Field errors are shown from the first submit on and follow the fields as they are filled in; an error the
  // server gave for the 2FA code stays until the code is changed.
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateEscrow();
  const figures = liveQuote(values.amount_usd, pricing);
  const buyer = user.role !== 'seller';
  const errors: Errors = {
    ...(submitted ? check(values, user, figures.ok ? null : figures.error) : {}),
    ...serverErrors,
  };
  const change = (name: keyof Values, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    if (serverErrors[name]) setServerErrors(({ [name]: _dropped, ...rest }) => rest);
  };
  const set = (name: keyof Values) => (event: { target: { value: string } }) => change(name, event.target.value);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setSubmitted(true);
    setServerErrors({});
    if (Object.keys(check(values, user, figures.ok ? null : figures.error)).length > 0) return;
    const email = values.counterparty_email.trim();
    create.mutate(
      {
        product_service: values.product_service.trim(),
        description: values.description.trim(),
        amount_usd: values.amount_usd.trim(),
        deadline_days: Number(values.deadline_days),
        inspection_days: Number(values.inspection_days),
        ...(buyer ? { seller_email: email } : { buyer_email: email }),
        totp_code: values.totp_code || null,
      },
      {
        onSuccess: onCreated,
        onError: (error) => {
          if (error instanceof ApiError && (error.code === 'totp_invalid' || error.code === 'totp_required'))
            setServerErrors({ totp_code: error.message });
          else setFailure(messageOf(error, 'Failed to create escrow'));
        },
      },
    );
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Create escrow">
      {failure && <Message tone="error">{failure}</Message>}
      <Field label="Product or service" required error={errors.product_service}>
        <input type="text" maxLength={200} value={values.product_service} onChange={set('product_service')} />
      </Field>
      <Field
        label={buyer ? "Seller's e-mail" : "Buyer's e-mail"}
        required
        error={errors.counterparty_email}
        hint={buyer ? 'The seller is invited by mail.' : 'The buyer is invited by mail and pays.'}
      >
        <input type="email" autoComplete="off" value={values.counterparty_email} onChange={set('counterparty_email')} />
      </Field>
      <div className="form-row">
        <Field label="Amount in USD" required error={errors.amount_usd} hint="The fee is added on top.">
          <input
            type="number"
            inputMode="decimal"
            min="0.01"
            step="0.01"
            value={values.amount_usd}
            onChange={set('amount_usd')}
          />
        </Field>
        <Field label="Payment deadline (days)" required error={errors.deadline_days} hint="From 1 to 90 days.">
          <WholeNumberInput min={1} max={90} value={values.deadline_days} onChange={set('deadline_days')} />
        </Field>
        <Field
          label="Inspection period (days)"
          required
          error={errors.inspection_days}
          hint="From 0 to 30: how long the buyer has to inspect after receiving; 0 accepts on receipt."
        >
          <WholeNumberInput min={0} max={30} value={values.inspection_days} onChange={set('inspection_days')} />
        </Field>
      </div>
      <LiveFigures figures={figures} pricing={pricing} />
      <Field
        label="Description and terms"
        required
        error={errors.description}
        hint="What is delivered, how and when: the admins read this if there is a dispute."
      >
        <textarea rows={4} maxLength={5000} value={values.description} onChange={set('description')} />
      </Field>
      {user.totp_enabled && (
        <TotpField
          value={values.totp_code}
          onChange={(totp_code) => change('totp_code', totp_code)}
          error={errors.totp_code}
          required
        />
      )}
      <div className="dialog-actions">
        <Button variant="secondary" onClick={onCancel} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" busy={create.isPending}>
          Create Escrow
        </Button>
      </div>
    </form>
  );
}
