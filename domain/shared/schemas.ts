import { z } from 'zod';

/** Shared field schemas of the events and of the rules that decide them. */
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
