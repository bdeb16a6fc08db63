import { type FormEvent, useState } from 'react';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { type ShipInput, type ShipmentMethod, useShip } from '../api/ship.ts';

const METHODS: Record<ShipmentMethod, string> = {
  shipping: 'Shipped by a carrier',
  digital: 'Delivered digitally (a download, a key, an account)',
  service: 'A service, done or started',
};
const CARRIER_MAX = 60;
const TRACKING_MAX = 100;
const NOTE_MAX = 1000;

type Errors = Partial<Record<'carrier' | 'tracking', string>>;

function check(method: ShipmentMethod, carrier: string, tracking: string): Errors {
  const errors: Errors = {};
  if (method === 'shipping' && !carrier.trim()) errors.carrier = 'The carrier is required for a shipment';
  else if (carrier.trim().length > CARRIER_MAX)
    errors.carrier = `The carrier must be at most ${CARRIER_MAX} characters`;
  if (tracking.trim().length > TRACKING_MAX)
    errors.tracking = `The tracking number must be at most ${TRACKING_MAX} characters`;
  return errors;
}

interface ShipDialogProps {
  escrowId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone: () => void;
}

/** Record the shipment: how it goes, by which carrier, with which tracking number, and a note for the buyer. */
export function ShipDialog({ escrowId, open, onOpenChange, onDone }: ShipDialogProps) {
  const [method, setMethod] = useState<ShipmentMethod>('shipping');
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  const [note, setNote] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const ship = useShip(escrowId);
  const errors = submitted ? check(method, carrier, tracking) : {};
  const physical = method === 'shipping';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(check(method, carrier, tracking)).length > 0) return;
    const input: ShipInput = { method };
    if (physical && carrier.trim()) input.carrier = carrier.trim();
    if (physical && tracking.trim()) input.tracking = tracking.trim();
    if (note.trim()) input.note = note.trim();
    ship.mutate(input, { onSuccess: onDone });
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => !ship.isPending && onOpenChange(next)}
      title="Record the shipment"
      description="The buyer is told at once; they then mark it received and inspect it."
    >
      <form className="form" onSubmit={submit} noValidate>
        {ship.isError && <Message tone="error">{messageOf(ship.error, 'Failed to record the shipment')}</Message>}
        <fieldset className="choice-group">
          <legend>How is it delivered?</legend>
          {(Object.keys(METHODS) as ShipmentMethod[]).map((value) => (
            <label key={value} className="choice">
              <input
                type="radio"
                name="method"
                value={value}
                checked={method === value}
                onChange={() => setMethod(value)}
              />{' '}
              {METHODS[value]}
            </label>
          ))}
        </fieldset>
        {physical && (
          <div className="form-row">
            <Field label="Carrier" required error={errors.carrier} hint="For example DHL, UPS or La Poste.">
              <input
                type="text"
                maxLength={CARRIER_MAX}
                value={carrier}
                onChange={(event) => setCarrier(event.target.value)}
              />
            </Field>
            <Field label="Tracking number" error={errors.tracking} hint="Optional, if the carrier gave one.">
              <input
                type="text"
                maxLength={TRACKING_MAX}
                autoComplete="off"
                value={tracking}
                onChange={(event) => setTracking(event.target.value)}
              />
            </Field>
          </div>
        )}
        <Field label="Note for the buyer" hint="Optional: what was sent, when it should arrive, how to start.">
          <textarea rows={3} maxLength={NOTE_MAX} value={note} onChange={(event) => setNote(event.target.value)} />
        </Field>
        <div className="dialog-actions">
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={ship.isPending}>
            Cancel
          </Button>
          <Button type="submit" busy={ship.isPending}>
            Record shipment
          </Button>
        </div>
      </form>
    </Modal>
  );
}
