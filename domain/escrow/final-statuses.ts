import type { EscrowStatus } from './state.ts';

/** The statuses an escrow ends in (the machine's final states): nothing happens to it after one of them. */
export const FINAL_ESCROW_STATUSES = ['released', 'refunded', 'cancelled'] as const satisfies readonly EscrowStatus[];
