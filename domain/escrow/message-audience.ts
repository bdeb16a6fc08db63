import type { EscrowStatus } from './state.ts';

/**
 * Whether the admins are told of a message in an escrow's conversation: while the escrow is disputed they mediate,
 * so they hear what the parties write (not what another admin wrote: they read that in the console).
 */
export const adminsHearOfMessage = (escrow: { status: EscrowStatus }, writer: 'buyer' | 'seller' | 'admin'): boolean =>
  writer !== 'admin' && escrow.status === 'disputed';
