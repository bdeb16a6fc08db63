/**
 * An escrow's times its rules compare with the clock (an address's hold, the payment deadline, the end of the
 * inspection period): with no new event, what the machine allows changes only when one of them passes. The machine's
 * context and the API's escrow answer carry them under these names. Pure and browser-safe: the server's kept lists
 * and the escrow pages read them alike.
 */
export const CLOCK_FIELDS = [
  'payout_address_held_until',
  'refund_address_held_until',
  'payment_due_at',
  'inspection_ends_at',
] as const;

export type EscrowClock = Readonly<Record<(typeof CLOCK_FIELDS)[number], string | null>>;

/** The first of an escrow's clock times at or after `now` (ms since the epoch), or null when none is ahead. */
export function nextClockChange(times: EscrowClock, now: number): number | null {
  let first: number | null = null;
  for (const field of CLOCK_FIELDS) {
    const value = times[field];
    if (value === null) continue;
    const time = Date.parse(value);
    if (time >= now && (first === null || time < first)) first = time;
  }
  return first;
}
