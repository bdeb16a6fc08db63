import { type FormEvent, useState } from 'react';
import { type BitcoinNetwork, checkBitcoinAddress } from '../../../../../../domain/bitcoin-address.ts';
import { Button } from '../../../../components/ui/button.tsx';
import { Field } from '../../../../components/ui/field.tsx';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import { useAddAddresses } from '../api/add-addresses.ts';

export interface AddReport {
  added: string[];
  refused: { address: string; reason: string }[];
}

/** The lines of the box, each checked by the domain's address code for the server's network (when known). */
export function checkLines(
  text: string,
  network: BitcoinNetwork | null,
): { valid: string[]; refused: AddReport['refused'] } {
  const lines = [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ];
  const valid: string[] = [];
  const refused: AddReport['refused'] = [];
  for (const line of lines) {
    const checked = network ? checkBitcoinAddress(line, network) : ({ ok: true, address: line } as const);
    if (checked.ok) valid.push(checked.address);
    else refused.push({ address: line, reason: `This address ${checked.reason}` });
  }
  return { valid, refused };
}

/**
 * Add one address, or paste many (one a line): checked here, then sent together in one request with one 2FA code;
 * the server checks each again and the report says what happened to each.
 */
export function AddAddressesForm({
  network,
  onReport,
}: {
  network: BitcoinNetwork | null;
  onReport: (report: AddReport) => void;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState<{ valid: string[]; refused: AddReport['refused'] } | null>(null);
  const add = useAddAddresses();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkLines(text, network);
    if (checked.valid.length === 0 && checked.refused.length === 0) return setError('Paste at least one address');
    setError(undefined);
    if (checked.valid.length === 0) return onReport({ added: [], refused: checked.refused });
    setPending(checked);
  };
  const run = async (totpCode: string) => {
    // A refusal of the whole request (a wrong code, say) throws: the dialog shows it and stays open.
    const answer = await add.mutateAsync({ addresses: pending?.valid ?? [], totp_code: totpCode });
    const report: AddReport = { added: [], refused: [...(pending?.refused ?? [])] };
    for (const result of answer.results) {
      if (result.added) report.added.push(result.address);
      else report.refused.push({ address: result.address, reason: result.detail ?? 'Not added' });
    }
    setText(report.refused.map((r) => r.address).join('\n'));
    onReport(report);
    return '';
  };
  return (
    <form className="form card" onSubmit={submit} noValidate>
      <Field
        label="Addresses to add, one a line"
        error={error}
        hint={
          network
            ? `Bitcoin ${network} addresses; each is checked before it is sent.`
            : 'Each is checked by the server.'
        }
      >
        <textarea
          className="mono"
          rows={4}
          value={text}
          onChange={(e) => setText(e.target.value)}
          spellCheck={false}
          autoComplete="off"
        />
      </Field>
      <div>
        <Button type="submit">Add to the pool</Button>
      </div>
      <ActionDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={`Add ${pending?.valid.length ?? 0} address${pending?.valid.length === 1 ? '' : 'es'} to the pool?`}
        description="Buyers will be asked to pay to these addresses: only add addresses whose keys the operators hold."
        confirmLabel="Add"
        fallback="Failed to add the addresses"
        run={run}
        onDone={() => undefined}
      >
        <ul className="mono small address-preview">
          {pending?.valid.map((a) => (
            <li key={a}>{a}</li>
          ))}
        </ul>
        {pending && pending.refused.length > 0 && (
          <p className="small">{pending.refused.length} line(s) were refused here and will not be sent.</p>
        )}
      </ActionDialog>
    </form>
  );
}
