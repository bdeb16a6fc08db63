import { z } from 'zod';

/** Numbers as requests write them: JSON numbers, or digits from forms and query strings. */

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

/**
 * The one 2FA code field of every request that may carry one (a current code, or a recovery code where one is
 * taken): trimmed; absent, null or blank is no code, which is `undefined` from here down, never '' or null.
 */
export const totpCodeField = z
  .string()
  .trim()
  .max(32)
  .nullish()
  .transform((code) => code || undefined);

/** The same field where a code must be given (switching 2FA on or off). */
export const requiredTotpCodeField = z.string().trim().min(1, 'totp_code is required').max(32);

/**
 * An e-mail address as every request takes it: trimmed, lower-cased, a valid address of at most 254 characters (the
 * longest a mailbox path may be, and what every event that records one accepts).
 */
export const emailAddress = (field: string) =>
  z
    .string(`${field} is required`)
    .trim()
    .toLowerCase()
    .pipe(z.email(`${field} must be a valid e-mail address`).max(254, `${field} must be at most 254 characters`));
