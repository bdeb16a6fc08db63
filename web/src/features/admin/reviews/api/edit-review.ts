import { api } from '../../../../api/client.ts';
import { type DetailAnswer, useAdminMutation } from '../../shared/admin-mutation.ts';

/** Replace the text (the original stays in the log), note why for other admins, and publish. */
export const editReview = ({ id, edited_text, admin_note }: { id: string; edited_text: string; admin_note: string }) =>
  api<DetailAnswer>(`/admin/reviews/${id}/edit`, { form: { edited_text, admin_note }, fallback: 'Failed to edit review' });

export const useEditReview = () => useAdminMutation(editReview);
