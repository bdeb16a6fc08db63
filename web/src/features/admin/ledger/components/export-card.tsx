import { type FormEvent, useState } from 'react';
import { messageOf } from '../../../../api/client.ts';
import { Button } from '../../../../components/ui/button.tsx';
import { Field } from '../../../../components/ui/field.tsx';
import { Message } from '../../../../components/ui/message.tsx';
import { useExportEvents } from '../api/export-events.ts';

const position = (v: string) => !v.trim() || /^[1-9]\d*$/.test(v.trim());

/** Export: the log (or a range of positions) downloaded as NDJSON, for `npm run cli -- verify-export FILE`. */
export function ExportCard() {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const exporter = useExportEvents();
  const valid = position(from) && position(to);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) exporter.mutate({ from, to });
  };
  return (
    <section className="card stack" aria-labelledby="export-title">
      <h3 id="export-title">Export</h3>
      <p className="small muted">
        The events as NDJSON with their hashes. An auditor checks the file offline with{' '}
        <code>npm run cli -- verify-export FILE</code>.
      </p>
      <form className="filters-row" onSubmit={submit} noValidate>
        <Field label="From position" error={position(from) ? undefined : 'A position is a whole number from 1'}>
          <input inputMode="numeric" value={from} onChange={(e) => setFrom(e.target.value)} placeholder="1" />
        </Field>
        <Field label="To position" error={position(to) ? undefined : 'A position is a whole number from 1'}>
          <input inputMode="numeric" value={to} onChange={(e) => setTo(e.target.value)} placeholder="the head" />
        </Field>
        <Button type="submit" busy={exporter.isPending}>
          Download export
        </Button>
      </form>
      {exporter.isError && <Message tone="error">{messageOf(exporter.error, 'Failed to export the events')}</Message>}
      {exporter.isSuccess && <Message tone="success">Export downloaded.</Message>}
    </section>
  );
}
