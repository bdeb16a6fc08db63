/**
 * One representation of int8 for both backends: a JS number, refused when it is not exact. Positions, cents and
 * satoshis all fit well inside 2^53 (21M BTC is 2.1e15 sats).
 */
export function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${value} is outside the safe integer range`);
  return n;
}
