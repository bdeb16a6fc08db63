import { DomainError } from './shared/errors.ts';

/** Money is integers: USD in cents, BTC in satoshis, the fee in basis points. Formulas run on bigint. */

export const SATS_PER_BTC = 100_000_000n;
/** Bitcoin's dust limit: an output of this many satoshis or fewer is not relayed, so an escrow must ask for more. */
export const DUST_LIMIT_SATS = 546;
const MAX_CENTS = 1_000_000_000_000; // 10 billion USD: far beyond any deal, far inside 2^53
/**
 * Below 10,000,000 BTC (half of all there will ever be): at most 15 significant digits, so `amount_btc` as a JSON
 * number with 8 decimals reads back as exactly these satoshis.
 */
export const MAX_SATS = 999_999_999_999_999n;

function toSafe(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < 0n) throw new RangeError(`${what} is out of range`);
  return Number(value);
}

/** The fee on `amountCents` at `feeBps` basis points, rounded half-up to the cent. */
export function feeCents(amountCents: number, feeBps: number): number {
  return toSafe((BigInt(amountCents) * BigInt(feeBps) + 5_000n) / 10_000n, 'fee');
}

export interface Quote {
  fee_cents: number;
  total_cents: number;
  amount_sats: number;
}

/** Fee on top, then the BTC to ask for: rounded up, so the service never asks for less than the total. */
export function quote(input: { amount_cents: number; fee_bps: number; rate_cents: number }): Quote {
  if (input.rate_cents <= 0) throw new RangeError('rate must be positive');
  const fee = feeCents(input.amount_cents, input.fee_bps);
  const total = BigInt(input.amount_cents) + BigInt(fee);
  const rate = BigInt(input.rate_cents);
  const sats = (total * SATS_PER_BTC + rate - 1n) / rate;
  if (sats > MAX_SATS) {
    throw new DomainError('invalid_input', 'amount_usd is too large to be paid in Bitcoin at the current rate');
  }
  return { fee_cents: fee, total_cents: toSafe(total, 'total'), amount_sats: Number(sats) };
}

export interface Payout {
  seller_sats: number;
  buyer_sats: number;
  fee_sats: number;
}

/** The service's share of what the buyer paid: the fee's part of the total, rounded down. */
export function feeSats(amountSats: number, feeCentsValue: number, totalCents: number): number {
  if (totalCents <= 0) return 0;
  return toSafe((BigInt(amountSats) * BigInt(feeCentsValue)) / BigInt(totalCents), 'fee in satoshis');
}

/**
 * Who gets what: on release the seller gets the principal and the fee is kept; on refund the buyer gets all of it
 * back; on a split the fee is kept and the principal divided, the seller's share rounded down.
 * Always seller + buyer + fee = amountSats.
 */
export function payout(
  kind: 'release' | 'refund' | 'split',
  escrow: { amount_sats: number; fee_cents: number; total_cents: number },
  sellerPercent = 100,
): Payout {
  if (kind === 'refund') return { seller_sats: 0, buyer_sats: escrow.amount_sats, fee_sats: 0 };
  const fee = feeSats(escrow.amount_sats, escrow.fee_cents, escrow.total_cents);
  const principal = escrow.amount_sats - fee;
  if (kind === 'release') return { seller_sats: principal, buyer_sats: 0, fee_sats: fee };
  const seller = toSafe((BigInt(principal) * BigInt(sellerPercent)) / 100n, 'seller share');
  return { seller_sats: seller, buyer_sats: principal - seller, fee_sats: fee };
}

const DECIMAL = /^(\d{1,13})(?:\.(\d{1,8}))?$/;

/** Parses a non-negative decimal written by a person (or a JSON number) into an integer of `scale` decimals. */
function parseDecimal(input: unknown, scale: number, field: string): bigint {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw new DomainError('invalid_input', `${field} must be a number`);
    if (Object.is(input, -0) || input < 0) throw new DomainError('invalid_input', `${field} must be positive`);
    text = String(input);
    if (/e/i.test(text)) throw new DomainError('invalid_input', `${field} is out of range`);
  } else if (typeof input === 'string') {
    text = input.trim();
  } else {
    throw new DomainError('invalid_input', `${field} must be a number`);
  }
  if (text.startsWith('-')) throw new DomainError('invalid_input', `${field} must be positive`);
  const match = DECIMAL.exec(text);
  if (!match) throw new DomainError('invalid_input', `${field} must be a decimal number like 12.34`);
  const fraction = match[2] ?? '';
  if (fraction.length > scale) {
    throw new DomainError('invalid_input', `${field} has more than ${scale} decimal places`);
  }
  return BigInt(match[1]!) * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
}

/** "12.34" or 12.34 → 1234 cents; more than 0, at most 2 decimals. */
export function parseUsdToCents(input: unknown, field = 'amount_usd'): number {
  const cents = parseDecimal(input, 2, field);
  if (cents <= 0n) throw new DomainError('invalid_input', `${field} must be more than 0`);
  if (cents > BigInt(MAX_CENTS)) throw new DomainError('invalid_input', `${field} is too large`);
  return Number(cents);
}

/** A BTC/USD rate like 65432.1 → 6543210 cents per BTC. */
export function parseRateToCents(input: unknown, field = 'btc_usd_rate'): number {
  return parseUsdToCents(input, field);
}

/** "1.5" → 150 basis points; 0 to 100 percent, at most 2 decimals. */
export function parsePercentToBps(input: unknown, field = 'fee_percentage'): number {
  const bps = parseDecimal(input, 2, field);
  if (bps > 10_000n) throw new DomainError('invalid_input', `${field} must be between 0 and 100`);
  return Number(bps);
}

const fixed = (value: number, scale: number) => {
  const divisor = 10n ** BigInt(scale);
  const v = BigInt(value);
  return `${v / divisor}.${(v % divisor).toString().padStart(scale, '0')}`;
};

/** 1234 → "12.34" */
export const formatCents = (cents: number) => fixed(cents, 2);
/** 203000 → "0.00203000" */
export const formatSats = (sats: number) => fixed(sats, 8);
/** 1234 → 12.34, the API's number form (exact: parsed from the decimal string). */
export const centsToNumber = (cents: number) => Number(formatCents(cents));
/** 150 → 1.5 */
export const bpsToPercent = (bps: number) => Number(fixed(bps, 2));

const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** 202999 → "$2,029.99": how people read an amount, on screen and in mail alike. */
export function displayUsd(cents: number): string {
  const [whole, fraction] = formatCents(Math.abs(cents)).split('.') as [string, string];
  return `${cents < 0 ? '-' : ''}$${groupThousands(whole)}.${fraction}`;
}

/** 3123062 → "0.03123062 BTC" (all 8 decimals: the amount to send, exactly). */
export const displayBtc = (sats: number) => `${formatSats(sats)} BTC`;

/**
 * The API's 2-decimal USD number (e.g. 2029.99) back to cents, through its decimal text, not by multiplying a float.
 */
export function usdNumberToCents(amount: number): number {
  const [whole, fraction = ''] = amount.toFixed(2).split('.') as [string, string?];
  return Number(BigInt(whole) * 100n + (whole.startsWith('-') ? -1n : 1n) * BigInt(fraction || '0'));
}

/** The API's 8-decimal BTC number back to satoshis, through its decimal text. */
export function btcNumberToSats(amount: number): number {
  const [whole, fraction = ''] = amount.toFixed(8).split('.') as [string, string?];
  return Number(BigInt(whole) * SATS_PER_BTC + BigInt(fraction || '0'));
}
