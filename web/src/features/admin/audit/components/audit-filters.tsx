import type { FormEvent } from 'react';
import { auditActionTypes } from '../../../../../../contract/audit-requests.ts';
import { Button } from '../../../../components/ui/button.tsx';
import { Field } from '../../../../components/ui/field.tsx';
import { useResetState } from '../../../../hooks/use-reset-state.ts';
import type { AuditFilters as Filters } from '../api/get-audit-logs.ts';

const OBJECTS = ['escrow', 'address', 'user', 'review', 'settings'];
/** datetime-local (read as UTC, as every time in the console is shown) <-> ISO. */
const toIso = (local: string) => (local ? `${local}:00Z` : '');
const toLocal = (iso: string) => (iso ? iso.slice(0, 16) : '');

export function AuditFilters({ filters, onApply }: { filters: Filters; onApply: (next: Filters) => void }) {
  const [draft, setDraft] = useResetState(JSON.stringify(filters), () => filters);
  const set = (key: keyof Filters) => (e: { target: { value: string } }) =>
    setDraft({ ...draft, [key]: e.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form className="filters-grid" onSubmit={submit} role="search" aria-label="Filter the audit log">
      <Field label="Action">
        <input
          list="audit-action-types"
          value={draft.action_type}
          onChange={set('action_type')}
          placeholder="e.g. EscrowReleased"
        />
      </Field>
      <datalist id="audit-action-types">
        {auditActionTypes.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      <Field label="Object">
        <select value={draft.object_type} onChange={set('object_type')}>
          <option value="">Any</option>
          {OBJECTS.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Object id">
        <input value={draft.object_id} onChange={set('object_id')} className="mono" />
      </Field>
      <Field label="Actor" hint="A username, or system">
        <input value={draft.actor} onChange={set('actor')} autoComplete="off" spellCheck={false} />
      </Field>
      <Field label="From (UTC)">
        <input
          type="datetime-local"
          value={toLocal(draft.from)}
          onChange={(e) => setDraft({ ...draft, from: toIso(e.target.value) })}
        />
      </Field>
      <Field label="To (UTC)">
        <input
          type="datetime-local"
          value={toLocal(draft.to)}
          onChange={(e) => setDraft({ ...draft, to: toIso(e.target.value) })}
        />
      </Field>
      <div className="filters-actions">
        <Button type="submit" variant="secondary">
          Apply filters
        </Button>
        <Button
          variant="ghost"
          onClick={() => onApply({ action_type: '', object_type: '', object_id: '', actor: '', from: '', to: '' })}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}
