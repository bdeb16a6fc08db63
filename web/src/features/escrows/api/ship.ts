import { useEscrowMutation } from './escrow-mutation.ts';

export const SHIPMENT_METHODS = ['shipping', 'digital', 'service'] as const;
export type ShipmentMethod = (typeof SHIPMENT_METHODS)[number];
export interface ShipInput {
  method: ShipmentMethod;
  carrier?: string;
  tracking?: string;
  note?: string;
}

/** The seller records what was sent and how (contract 7.2): the buyer is mailed. */
export const useShip = (id: string) =>
  useEscrowMutation<ShipInput>(id, (json) => ({ path: '/ship', json, fallback: 'Failed to record the shipment' }));
