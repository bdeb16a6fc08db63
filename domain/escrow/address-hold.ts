/**
 * Whether money may go at `at` to an address held until `heldUntil` (a replaced payout or refund address is held for
 * a while): from that very time on. Pure and browser-safe: the machine's rules and the escrow pages read it alike.
 * `at` is empty only when folding facts stored without a time: the rule was checked when they were decided.
 */
export const addressFreeAt = (heldUntil: string | null, at: string): boolean =>
  heldUntil === null || !at || Date.parse(at) >= Date.parse(heldUntil);
