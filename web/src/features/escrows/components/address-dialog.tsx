import { type FormEvent, useState } from 'react';
import { checkBitcoinAddress } from '../../../../../domain/bitcoin-address.ts';
import { ApiError, messageOf } from '../../../api/client.ts';
import { useSiteInfo } from '../../../api/site.ts';
import { Button } from '../../../components/ui/button.tsx';
import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { TotpField } from '../../../components/ui/totp-field.tsx';
import { useAddressMessage } from '../api/get-address-message.ts';
import { useSetPayoutAddress } from '../api/set-payout-address.ts';
import type { Escrow } from '../api/types.ts';

interface AddressDialogProps {
  escrow: Pick<Escrow, 'id' | 'side' | 'status' | 'payout_address' | 'refund_address'>;
  totpEnabled: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone: () => void;
}

/**
 * The seller's payout or the buyer's refund address, checked here by the server's own rules for its network
 * before it is sent. Replacing one once the money is held asks for the 2FA code of a user who has 2FA on.
 */
export function AddressDialog({ escrow, totpEnabled, open, onOpenChange, onDone }: AddressDialogProps) {
  const seller = escrow.side === 'seller';
  const current = seller ? escrow.payout_address : escrow.refund_address;
  const [address, setAddress] = useState(current ?? '');
  const [code, setCode] = useState('');
  const [signature, setSignature] = useState('');
  const [errors, setErrors] = useState<{ address?: string; totp?: string }>({});
  const site = useSiteInfo();
  const save = useSetPayoutAddress(escrow.id);
  const needsCode = totpEnabled && Boolean(current);
  const network = site.data?.bitcoin_network;
  // The message to sign names the address: asked for once the address passes the network's check here.
  const typed = network ? checkBitcoinAddress(address, network) : null;
  const message = useAddressMessage(escrow.id, typed?.ok ? typed.address : null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    const checked = network ? checkBitcoinAddress(address, network) : null;
    if (!address.trim()) found.address = 'Enter a Bitcoin address';
    else if (checked && !checked.ok) found.address = `This address ${checked.reason}`;
    if (needsCode && !code) found.totp = 'Enter the 6-digit code from your authenticator app to replace the address';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(
      {
        address: checked?.ok ? checked.address : address.trim(),
        ...(code ? { totp_code: code } : {}),
        ...(signature.trim() ? { signature: signature.trim() } : {}),
      },
      {
        onSuccess: onDone,
        onError: (error) => {
          if (error instanceof ApiError && (error.code === 'totp_invalid' || error.code === 'totp_required'))
            setErrors({ totp: error.message });
        },
      },
    );
  };
  const refusal =
    save.isError &&
    !(save.error instanceof ApiError && (save.error.code === 'totp_invalid' || save.error.code === 'totp_required'));

  return (
    <Modal
      open={open}
      onOpenChange={(next) => !save.isPending && onOpenChange(next)}
      title={seller ? 'Payout address' : 'Refund address'}
      description={
        seller
          ? 'Where your money is sent when the escrow is released to you.'
          : 'Where your money is sent back if the escrow is refunded.'
      }
    >
      <form className="form" onSubmit={submit} noValidate>
        {refusal && <Message tone="error">{messageOf(save.error, 'Failed to save the address')}</Message>}
        <Field
          label={seller ? 'Your payout address' : 'Your refund address'}
          required
          error={errors.address}
          hint={network ? `A Bitcoin ${network} address you control.` : 'A Bitcoin address you control.'}
        >
          <input
            type="text"
            className="mono"
            autoComplete="off"
            spellCheck={false}
            value={address}
            onChange={(event) => setAddress(event.target.value)}
          />
        </Field>
        <fieldset className="choice-group">
          <legend>Prove it is yours (optional)</legend>
          <p className="field-hint">
            Sign this message with the address in your wallet (&quot;Sign message&quot;, BIP-322) and paste the
            signature: the address is then shown as proven to you, the other party and the admins. P2WPKH (bc1q…) and
            Taproot (bc1p…) addresses can sign.
          </p>
          {message.data ? (
            <div className="address-line">
              <code className="break" aria-label="Message to sign">
                {message.data.message}
              </code>
              <CopyButton text={message.data.message} label="Copy message" />
            </div>
          ) : (
            <p className="small muted">
              {message.isError
                ? messageOf(message.error, 'Failed to load the message to sign')
                : 'Enter a valid address to see the message to sign.'}
            </p>
          )}
          <Field label="Signature (base64)">
            <textarea
              className="mono"
              rows={2}
              autoComplete="off"
              spellCheck={false}
              value={signature}
              onChange={(event) => setSignature(event.target.value)}
            />
          </Field>
        </fieldset>
        {needsCode && <TotpField value={code} onChange={setCode} error={errors.totp} required />}
        {current && (
          <p className="small muted">
            Replacing an address is mailed to both parties and the admins, and money is held back from a new address for
            a while.
          </p>
        )}
        <div className="dialog-actions">
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" busy={save.isPending}>
            Save address
          </Button>
        </div>
      </form>
    </Modal>
  );
}
