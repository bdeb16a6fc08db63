import { z } from 'zod';

/** Shared field schemas used by events and by API inputs alike. */
export const uuid = z.uuid();
export const isoTime = z.iso.datetime({ offset: true });
export const email = z.email().max(254);
export const role = z.enum(['buyer', 'seller', 'admin']);
export type Role = z.infer<typeof role>;
export const side = z.enum(['buyer', 'seller']);
export type Side = z.infer<typeof side>;
/** Non-negative safe integer: cents, satoshis, basis points. */
export const money = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
/** A Bitcoin transaction id: 64 hex characters. */
export const txid = z.string().regex(/^[0-9a-fA-F]{64}$/, 'txid must be 64 hexadecimal characters');

const DIGITS = /^\d{1,15}$/;
const DECIMAL = /^\d{1,15}(\.\d{1,8})?$/;

/**
 * A whole number as a person writes it: decimal digits (forms and query strings send text), or a JSON integer.
 * JavaScript's Number() also reads "0x7", "1e1", "0b1", " 7 ", "7.0" and "" (as 0); none of those is refused by
 * z.coerce, so none of them is taken here.
 */
export const wholeNumber = (field: string) =>
  z.union([z.number(), z.string()], `${field} must be a whole number`).transform((value, ctx) => {
    if (typeof value === 'number' ? Number.isSafeInteger(value) : DIGITS.test(value)) return Number(value);
    ctx.addIssue({ code: 'custom', message: `${field} must be a whole number written in decimal digits` });
    return z.NEVER;
  });

/** A number with an optional decimal fraction, as a person writes it ("4.5"), or a JSON number; never "0x5" or "5e0". */
export const decimalNumber = (field: string) =>
  z.union([z.number(), z.string()], `${field} must be a number`).transform((value, ctx) => {
    if (typeof value === 'number' ? Number.isFinite(value) : DECIMAL.test(value)) return Number(value);
    ctx.addIssue({ code: 'custom', message: `${field} must be a number written in decimal digits` });
    return z.NEVER;
  });
