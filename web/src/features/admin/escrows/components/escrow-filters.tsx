import type { FormEvent } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { Field } from '../../../../components/ui/field.tsx';
import { useResetState } from '../../../../hooks/use-reset-state.ts';
import type { EscrowStatus } from '../api/get-escrow.ts';

const STATUSES: EscrowStatus[] = [
  'pending_payment',
  'funded',
  'disputed',
  'frozen',
  'released',
  'refunded',
  'cancelled',
];

interface Filters {
  status: string;
  search: string;
  ready: boolean;
}

/** Status and "ready to release" filters (applied at once) and a search by escrow id or e-mail (applied on Search). */
export function EscrowFilters({ status, search, ready, onChange }: Filters & { onChange: (next: Filters) => void }) {
  const [text, setText] = useResetState(search, () => search);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ status, search: text.trim(), ready });
  };
  return (
    <form className="filters-row" onSubmit={submit} role="search">
      <Field label="Status">
        <select value={status} onChange={(e) => onChange({ status: e.target.value, search, ready })}>
          <option value="">All statuses</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.replace('_', ' ')}
            </option>
          ))}
        </select>
      </Field>
      <label className="choice filters-choice">
        <input
          type="checkbox"
          checked={ready}
          onChange={(e) => onChange({ status, search, ready: e.target.checked })}
        />{' '}
        Ready to release only
      </label>
      <Field label="Escrow id or e-mail">
        <input type="search" value={text} onChange={(e) => setText(e.target.value)} />
      </Field>
      <Button type="submit" variant="secondary">
        Search
      </Button>
    </form>
  );
}
