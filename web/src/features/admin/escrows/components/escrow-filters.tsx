import { type FormEvent, startTransition, useOptimistic } from 'react';
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

/**
 * Status and "ready to release" filters (applied at once) and a search by escrow id or e-mail (applied on Search).
 * The filters live in the URL, which the router updates in a transition: until it commits, the select and the box show
 * the choice just made, not the URL's old one (a busy browser would otherwise undo the click for a moment).
 */
export function EscrowFilters({ status, search, ready, onChange }: Filters & { onChange: (next: Filters) => void }) {
  const [text, setText] = useResetState(search, () => search);
  const [shown, showChoice] = useOptimistic({ status, ready });
  const choose = (next: Filters) =>
    startTransition(() => {
      showChoice({ status: next.status, ready: next.ready });
      onChange(next);
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ ...shown, search: text.trim() });
  };
  return (
    <form className="filters-row" onSubmit={submit} role="search">
      <Field label="Status">
        <select value={shown.status} onChange={(e) => choose({ status: e.target.value, search, ready: shown.ready })}>
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
          checked={shown.ready}
          onChange={(e) => choose({ status: shown.status, search, ready: e.target.checked })}
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
