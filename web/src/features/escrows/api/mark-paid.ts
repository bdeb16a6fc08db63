import { useEscrowMutation } from './escrow-mutation.ts';

/** Mark as Paid: notes and an optional evidence file, as a multipart form. */
export const useMarkPaid = (id: string) =>
  useEscrowMutation<{ notes: string; file: File | null }>(id, ({ notes, file }) => {
    const form = new FormData();
    form.append('notes', notes);
    if (file) form.append('file', file);
    return { path: '/mark-paid', form, fallback: 'Failed to mark as paid' };
  });
