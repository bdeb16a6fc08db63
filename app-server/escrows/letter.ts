/** A mail an escrow event calls for, before it is addressed: who hears of it, its subject and its lines. */
export interface Letter {
  to: 'parties' | 'buyer' | 'seller' | 'admins' | 'everyone';
  subject: string;
  /** What happened and what the reader does next; per side when they differ. */
  lines: string[] | ((side: 'buyer' | 'seller') => string[]);
  /** Admin letters: where in the admin console to act (default: the escrow in the Escrows tab). */
  adminPath?: string;
}
