import type { z } from 'zod';
import type { paymentNotesSchema } from '../../../../../../contract/admin-escrow-requests.ts';
import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';
import type { AdminEscrow } from './get-escrow.ts';

/**
 * The release and refund dialogs' values, as typed: `expected_address` is the address the confirmation showed, and
 * the server refuses (409 address_changed) if it changed since.
 */
export type MoneyActionInput = Required<z.input<typeof paymentNotesSchema>> & { escrowId: string };

export const moneyForm = ({ notes, txid, expected_address, totp_code }: MoneyActionInput) =>
  withCode({ notes: notes.trim(), expected_address, ...(txid.trim() ? { txid: txid.trim() } : {}) }, totp_code);

/** Release a funded escrow to the seller's payout address. */
export const releaseEscrow = (input: MoneyActionInput) =>
  api<AdminEscrow>(`/admin/escrows/${input.escrowId}/release`, {
    form: moneyForm(input),
    fallback: 'Failed to release escrow',
  });

export const useReleaseEscrow = () => useAdminMutation(releaseEscrow);
