import { Field } from '../../../components/ui/field.tsx';

/** The optional id of the transaction an admin sent before recording a payout or a verified payment. */
export function TxidField({ value, onChange }: { value: string; onChange: (txid: string) => void }) {
  return (
    <Field label="Transaction id (optional)" hint="64 hexadecimal characters">
      <input
        className="mono"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
        autoComplete="off"
      />
    </Field>
  );
}
