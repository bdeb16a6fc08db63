import { consistencyProofSchema } from '../../../../../contract/transparency.ts';
import { api } from '../../../api/client.ts';

/** The RFC 9162 proof that the tree of `from` leaves is a prefix of the signed tree of `to` leaves. */
export const getConsistencyProof = async (from: number, to: number, signal?: AbortSignal) =>
  consistencyProofSchema.parse(
    await api<unknown>(`/transparency/consistency?from=${from}&to=${to}`, {
      ...(signal ? { signal } : {}),
      fallback: 'Could not read the consistency proof.',
    }),
  );
