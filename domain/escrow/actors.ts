/** Who is asking, as the application worked it out from the session and the escrow's parties. */
export type EscrowActor = 'buyer' | 'seller' | 'admin' | 'system';

/** `creator`: the side that created the escrow, whichever it is; `counterparty`: the other side. */
export type EscrowRole = EscrowActor | 'creator' | 'counterparty';

/**
 * Who may give each command, written once: the decider refuses everyone else (403) and `allowedActions` offers the
 * action to these only. Whether the escrow allows it now is the machine's to say.
 */
export const escrowCommandActors = {
  create: ['buyer', 'seller'],
  /** Make Payment: the buyer takes a free pool address. */
  requestPayment: ['buyer'],
  assignAddress: ['admin'],
  markPaid: ['buyer'],
  rejectPayment: ['admin'],
  verifyPayment: ['admin'],
  confirmReceipt: ['buyer'],
  setPayoutAddress: ['buyer', 'seller'],
  release: ['admin'],
  refund: ['admin'],
  openDispute: ['buyer', 'seller'],
  resolveDispute: ['admin'],
  cancel: ['creator'],
  agree: ['counterparty'],
  decline: ['counterparty'],
  ship: ['seller'],
  receive: ['buyer'],
  /** The inspection period ended with neither acceptance nor dispute. */
  acceptAfterInspection: ['system'],
  cancelByAdmin: ['admin'],
  bindParty: ['system'],
  expire: ['system'],
  freeze: ['admin'],
  unfreeze: ['admin'],
  postMessage: ['buyer', 'seller', 'admin'],
  /** Settlement by agreement (contract 7.5): the two parties only; which of them may answer is the machine's. */
  propose: ['buyer', 'seller'],
  acceptProposal: ['buyer', 'seller'],
  declineProposal: ['buyer', 'seller'],
  withdrawProposal: ['buyer', 'seller'],
} as const satisfies Record<string, readonly EscrowRole[]>;

export type EscrowCommandType = keyof typeof escrowCommandActors;

/** Whether `actor` may give `command` on an escrow created by `creatorSide`. */
export function mayGive(
  command: EscrowCommandType,
  actor: EscrowActor,
  creatorSide: 'buyer' | 'seller' | null,
): boolean {
  const roles: readonly EscrowRole[] = escrowCommandActors[command];
  if (roles.includes(actor)) return true;
  if (creatorSide === null || (actor !== 'buyer' && actor !== 'seller')) return false;
  return roles.includes(actor === creatorSide ? 'creator' : 'counterparty');
}
