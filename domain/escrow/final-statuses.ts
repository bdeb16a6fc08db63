import type { EscrowStatus } from './state.ts';

/** The statuses an escrow ends in (the machine's final states): nothing happens to it after one of them. */
export const FINAL_ESCROW_STATUSES = ['released', 'refunded', 'cancelled'] as const satisfies readonly EscrowStatus[];

/** The statuses in which money paid into an escrow stays where it is, until an admin pays it out. */
const HOLDING_STATUSES: readonly string[] = ['funded', 'disputed', 'frozen'] satisfies readonly EscrowStatus[];

/** Whether the escrow has ended: nothing can happen to it anymore. */
export const hasEnded = (status: string): boolean => (FINAL_ESCROW_STATUSES as readonly string[]).includes(status);

/** Whether the escrow holds the buyer's money now: the payment was verified and nothing was paid out yet. */
export const holdsMoney = (escrow: { status: string; funded_at: unknown }): boolean =>
  HOLDING_STATUSES.includes(escrow.status) && escrow.funded_at !== null;
